import { bankInvariants } from "./bank.js";
import { distributionInvariants } from "./distribution.js";
import { govInvariants } from "./gov.js";
import type { Invariant } from "./invariant.js";
import { stakingInvariants } from "./staking.js";

/**
 * The invariants the hub's app registers with its crisis module (mm.RegisterInvariants) for the
 * modules this node has: bank, staking, distribution and gov (the irismod modules and the other
 * SDK modules register none).
 */
export const REGISTERED_INVARIANTS: Invariant[] = [...bankInvariants, ...stakingInvariants, ...distributionInvariants, ...govInvariants];
