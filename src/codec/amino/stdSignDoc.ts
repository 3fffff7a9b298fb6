import type { JsonValue } from "../json/renderProto3.js";
import { goJson } from "./aminoJson.js";

export interface StdSignDocInput {
  chainId: string;
  accountNumber: string;
  sequence: string;
  timeoutHeight: string;
  /** StdFee amino JSON: {amount: Coin[], gas: "...", payer?, granter?} (payer and granter only when set) */
  fee: { amount: JsonValue[]; gas: string; payer?: string; granter?: string };
  memo: string;
  /** Each msg's sign bytes as JSON: {type, value}. */
  msgs: JsonValue[];
}

/**
 * The canonical bytes that SIGN_MODE_LEGACY_AMINO_JSON signs (StdSignBytes):
 * the StdSignDoc with keys sorted at every depth, compact, HTML characters
 * escaped; timeout_height only when non-zero. The fee's payer and granter
 * are written when set, as SDK v0.46+ does (v0.41 left them out, so whoever
 * relayed an amino-signed tx could choose who pays among its signers).
 */
export function stdSignBytes(doc: StdSignDocInput): Uint8Array {
  const json: Record<string, JsonValue> = {
    account_number: doc.accountNumber,
    chain_id: doc.chainId,
    fee: {
      amount: doc.fee.amount,
      gas: doc.fee.gas,
      ...(doc.fee.payer ? { payer: doc.fee.payer } : {}),
      ...(doc.fee.granter ? { granter: doc.fee.granter } : {}),
    },
    memo: doc.memo,
    msgs: doc.msgs,
    sequence: doc.sequence,
  };
  if (doc.timeoutHeight !== "0" && doc.timeoutHeight !== "") json.timeout_height = doc.timeoutHeight;
  return new TextEncoder().encode(goJson(json, true));
}
