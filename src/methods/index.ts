import type { ServiceMethod } from "./serviceMethod.js";
import { consensusService } from "./consensus/consensusService.js";
import { txService } from "./tx/txService.js";
import { newerTxService } from "./tx/newerTxService.js";
import { mintService } from "./mint/mintService.js";
import { newerBankService } from "./bank/newerBankService.js";
import { newerAuthService } from "./auth/newerAuthService.js";

/** Implementations of the methods that are not ABCI queries, by method path. */
export const SERVICE_METHODS: ReadonlyMap<string, ServiceMethod> = new Map(
  Object.entries({ ...consensusService, ...txService, ...newerTxService, ...mintService, ...newerBankService, ...newerAuthService }),
);
