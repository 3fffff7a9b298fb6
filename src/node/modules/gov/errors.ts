import { moduleError, TxError } from "../../abci/txError.js";

/** The registered errors of x/gov (codespace "gov") and of x/params' proposals (codespace "params"), v0.41. */
const GOV = {
  unknownProposal: [2, "unknown proposal"],
  inactiveProposal: [3, "inactive proposal"],
  invalidProposalContent: [5, "invalid proposal content"],
  invalidProposalType: [6, "invalid proposal type"],
  invalidVote: [7, "invalid vote option"],
  noProposalHandlerExists: [9, "no handler exists for proposal type"],
} as const;

const PARAMS = {
  unknownSubspace: [2, "unknown subspace"],
  settingParameter: [3, "failed to set parameter"],
  emptyChanges: [4, "submitted parameter changes are empty"],
  emptySubspace: [5, "parameter subspace is empty"],
  emptyKey: [6, "parameter key is empty"],
  emptyValue: [7, "parameter value is empty"],
} as const;

export function govError(name: keyof typeof GOV, detail?: string): TxError {
  const [code, description] = GOV[name];
  return moduleError("gov", code, description, detail);
}

export function paramsError(name: keyof typeof PARAMS, detail?: string): TxError {
  const [code, description] = PARAMS[name];
  return moduleError("params", code, description, detail);
}
