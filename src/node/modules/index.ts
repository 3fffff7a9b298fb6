import { authModule } from "./auth/authModule.js";
import { bankModule } from "./bank/bankModule.js";
import type { NodeModule } from "./nodeModule.js";

/** The modules of the embedded node, in genesis order. */
export const NODE_MODULES: NodeModule[] = [authModule, bankModule];
