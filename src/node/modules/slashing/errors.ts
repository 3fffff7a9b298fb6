import { errorTable } from "../shared/errorTable.js";

/** The registered errors of x/slashing (codespace "slashing"), v0.41 types/errors.go. */
export const slashingError = errorTable("slashing", {
  noValidatorForAddress: [2, "address is not associated with any known validator"],
  badValidatorAddr: [3, "validator does not exist for that address"],
  validatorJailed: [4, "validator still jailed; cannot be unjailed"],
  validatorNotJailed: [5, "validator not jailed; cannot be unjailed"],
  missingSelfDelegation: [6, "validator has no self-delegation; cannot be unjailed"],
  selfDelegationTooLowToUnjail: [7, "validator's self delegation less than minimum; cannot be unjailed"],
});
