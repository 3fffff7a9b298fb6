import { errorTable } from "../shared/errorTable.js";

/** The registered errors of x/distribution (codespace "distribution"), v0.41 types/errors.go. */
export const distributionError = errorTable("distribution", {
  emptyDelegatorAddr: [2, "delegator address is empty"],
  emptyWithdrawAddr: [3, "withdraw address is empty"],
  emptyValidatorAddr: [4, "validator address is empty"],
  emptyDelegationDistInfo: [5, "no delegation distribution info"],
  noValidatorDistInfo: [6, "no validator distribution info"],
  noValidatorCommission: [7, "no validator commission to withdraw"],
  setWithdrawAddrDisabled: [8, "set withdraw address disabled"],
  badDistribution: [9, "community pool does not have sufficient coins to distribute"],
  invalidProposalAmount: [10, "invalid community pool spend proposal amount"],
  emptyProposalRecipient: [11, "invalid community pool spend proposal recipient"],
});
