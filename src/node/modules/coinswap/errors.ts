import { errorTable } from "../shared/errorTable.js";

/** The registered errors of the coinswap module (codespace "coinswap"), irismod v1.3.1 types/errors.go. */
export const coinswapError = errorTable("coinswap", {
  reservePoolNotExists: [2, "reserve pool not exists"],
  equalDenom: [3, "input and output denomination are equal"],
  notContainStandardDenom: [4, "must have one standard denom"],
  mustBeStandardDenom: [5, "must be standard denom"],
  invalidDenom: [6, "invalid denom"],
  invalidDeadline: [7, "invalid deadline"],
  constraintNotMet: [8, "constraint not met"],
  insufficientFunds: [9, "insufficient funds"],
});
