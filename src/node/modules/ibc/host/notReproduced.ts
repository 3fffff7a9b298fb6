import { sdkError, type TxError } from "../../../abci/txError.js";

/**
 * Where the real keeper goes on to verify something against the counterparty chain (a light
 * client header, an ICS-23 membership proof) this node stops: the dev chain has no counterparty
 * whose commitments could be proved, and this node does not implement those verifications. It
 * answers ErrNotSupported naming the step, so that no such Msg ever succeeds here by pretence.
 */
export function notReproduced(step: string): TxError {
  return sdkError("notSupported", `${step} is not implemented by this node`);
}
