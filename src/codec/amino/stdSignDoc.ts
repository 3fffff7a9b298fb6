import type { JsonValue } from "../json/renderProto3.js";
import { goJson } from "./aminoJson.js";

export interface StdSignDocInput {
  chainId: string;
  accountNumber: string;
  sequence: string;
  timeoutHeight: string;
  /** StdFee amino JSON: {amount: Coin[], gas: "..."} */
  fee: { amount: JsonValue[]; gas: string };
  memo: string;
  /** Each msg's sign bytes as JSON: {type, value}. */
  msgs: JsonValue[];
}

/**
 * The canonical bytes that SIGN_MODE_LEGACY_AMINO_JSON signs (StdSignBytes):
 * the StdSignDoc with keys sorted at every depth, compact, HTML characters
 * escaped; timeout_height only when non-zero.
 */
export function stdSignBytes(doc: StdSignDocInput): Uint8Array {
  const json: Record<string, JsonValue> = {
    account_number: doc.accountNumber,
    chain_id: doc.chainId,
    fee: { amount: doc.fee.amount, gas: doc.fee.gas },
    memo: doc.memo,
    msgs: doc.msgs,
    sequence: doc.sequence,
  };
  if (doc.timeoutHeight !== "0" && doc.timeoutHeight !== "") json.timeout_height = doc.timeoutHeight;
  return new TextEncoder().encode(goJson(json, true));
}
