import { authModule } from "./auth/module.js";
import { bankModule } from "./bank/module.js";
import { stakingModule } from "./staking/module.js";
import { slashingModule } from "./slashing/module.js";
import { distributionModule } from "./distribution/module.js";
import { evidenceModule } from "./evidence/module.js";
import { govModule } from "./gov/module.js";
import { coinswapModule } from "./coinswap/module.js";
import { htlcModule } from "./htlc/module.js";
import { nftModule } from "./nft/module.js";
import type { NodeModule } from "./nodeModule.js";
import { guardianModule } from "./guardian/module.js";
import { ibcChannelModule } from "./ibc/channel/module.js";
import { ibcClientModule } from "./ibc/client/module.js";
import { ibcConnectionModule } from "./ibc/connection/module.js";
import { transferModule } from "./ibc/transfer/module.js";
import { mintModule } from "./mint/module.js";
import { paramsModule } from "./params/module.js";
import { upgradeModule } from "./upgrade/module.js";
import { tokenModule } from "./token/module.js";
import { serviceModule } from "./service/module.js";
import { oracleModule } from "./oracle/module.js";
import { randomModule } from "./random/module.js";
import { recordModule } from "./record/module.js";
import { registerModuleService, registerServiceCallbacks } from "./service/callbacks.js";

/** The modules of the embedded node, in genesis order. */
export const NODE_MODULES: NodeModule[] = [
  authModule,
  bankModule,
  stakingModule,
  slashingModule,
  distributionModule,
  evidenceModule,
  govModule,
  paramsModule,
  upgradeModule,
  mintModule,
  guardianModule,
  ibcClientModule,
  ibcConnectionModule,
  ibcChannelModule,
  transferModule,
  tokenModule,
  htlcModule,
  coinswapModule,
  nftModule,
  serviceModule,
  oracleModule,
  randomModule,
  recordModule,
];

for (const module of NODE_MODULES) {
  if (module.serviceCallbacks) registerServiceCallbacks(module.name, module.serviceCallbacks);
  if (module.moduleService) registerModuleService(module.name, module.moduleService);
}

/**
 * The order of the block hooks, as the hub's app sets them (SetOrderBeginBlockers /
 * SetOrderEndBlockers); modules not named run after these, in genesis order.
 * Mint runs before distribution so that a block's inflation is allocated in the same block.
 */
export const BEGIN_BLOCK_ORDER = ["upgrade", "mint", "distribution", "slashing", "evidence", "staking"];
export const END_BLOCK_ORDER = ["gov", "staking"];
