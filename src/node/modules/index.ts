import { authModule } from "./auth/authModule.js";
import { bankModule } from "./bank/bankModule.js";
import { stakingModule } from "./staking/stakingModule.js";
import { slashingModule } from "./slashing/slashingModule.js";
import { distributionModule } from "./distribution/distributionModule.js";
import { evidenceModule } from "./evidence/evidenceModule.js";
import { govModule } from "./gov/govModule.js";
import { coinswapModule } from "./coinswap/coinswapModule.js";
import { htlcModule } from "./htlc/htlcModule.js";
import { nftModule } from "./nft/nftModule.js";
import type { NodeModule } from "./nodeModule.js";
import { guardianModule } from "./guardian/guardianModule.js";
import { ibcChannelModule } from "./ibc/channelModule.js";
import { ibcClientModule } from "./ibc/clientModule.js";
import { ibcConnectionModule } from "./ibc/connectionModule.js";
import { transferModule } from "./ibc/transferModule.js";
import { mintModule } from "./mint/mintModule.js";
import { paramsModule } from "./params/paramsModule.js";
import { upgradeModule } from "./upgrade/upgradeModule.js";
import { tokenModule } from "./token/tokenModule.js";
import { serviceModule } from "./service/serviceModule.js";
import { oracleModule } from "./oracle/oracleModule.js";
import { randomModule } from "./random/randomModule.js";
import { recordModule } from "./record/recordModule.js";

/** The modules of the embedded node, in genesis order. */
export const NODE_MODULES: NodeModule[] = [authModule, bankModule, stakingModule, slashingModule, distributionModule, evidenceModule, govModule, paramsModule, upgradeModule, mintModule, guardianModule, ibcClientModule, ibcConnectionModule, ibcChannelModule, transferModule, tokenModule, htlcModule, coinswapModule, nftModule, serviceModule, oracleModule, randomModule, recordModule];
