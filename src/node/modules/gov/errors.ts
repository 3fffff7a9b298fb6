import { errorTable } from "../shared/errorTable.js";

/** The registered errors of x/gov (codespace "gov") and of x/params' proposals (codespace "params"), v0.41. */
export const govError = errorTable("gov", {
  unknownProposal: [2, "unknown proposal"],
  inactiveProposal: [3, "inactive proposal"],
  invalidProposalContent: [5, "invalid proposal content"],
  invalidProposalType: [6, "invalid proposal type"],
  invalidVote: [7, "invalid vote option"],
  noProposalHandlerExists: [9, "no handler exists for proposal type"],
});

export const paramsError = errorTable("params", {
  unknownSubspace: [2, "unknown subspace"],
  settingParameter: [3, "failed to set parameter"],
  emptyChanges: [4, "submitted parameter changes are empty"],
  emptySubspace: [5, "parameter subspace is empty"],
  emptyKey: [6, "parameter key is empty"],
  emptyValue: [7, "parameter value is empty"],
});
