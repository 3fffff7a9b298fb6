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

/**
 * The order of the block hooks, as the hub's app sets them (SetOrderBeginBlockers /
 * SetOrderEndBlockers); modules not named run after these, in genesis order.
 * Mint runs before distribution so that a block's inflation is allocated in the same block.
 */
export const BEGIN_BLOCK_ORDER = ["upgrade", "mint", "distribution", "slashing", "evidence", "staking"];
export const END_BLOCK_ORDER = ["gov", "staking"];
