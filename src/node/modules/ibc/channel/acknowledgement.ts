import { goJson } from "../../../../codec/amino/aminoJson.js";
import { sdkError } from "../../../abci/txError.js";
import { utf8 } from "../../../store/moduleStore.js";
import { jsonpbObject } from "../transfer/packetData.js";

/** channeltypes.Acknowledgement: the oneof response, a result's bytes or an error's text (neither when absent). */
export interface Acknowledgement {
  result?: Uint8Array;
  error?: string;
}

/** Acknowledgement.GetBytes: the sorted proto3 JSON ({"result":"<base64>"} or {"error":"…"}). */
export function acknowledgementBytes(ack: Acknowledgement): Uint8Array {
  if (ack.result !== undefined) return utf8(goJson({ result: Buffer.from(ack.result).toString("base64") }));
  return utf8(goJson({ error: ack.error ?? "" }));
}

/**
 * types.ModuleCdc.UnmarshalJSON of an acknowledgement (jsonpb). Failing is ErrUnknownRequest "cannot
 * unmarshal ICS-20 transfer packet acknowledgement: …", which fails the transaction.
 */
export function decodeAcknowledgement(bytes: Uint8Array): Acknowledgement {
  const fail = (why: string) => sdkError("unknownRequest", `cannot unmarshal ICS-20 transfer packet acknowledgement: ${why}`);
  const record = jsonpbObject(bytes, ["result", "error"], "types.Acknowledgement", fail);
  if (typeof record.result === "string") {
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(record.result)) throw fail("illegal base64 data");
    return { result: Uint8Array.from(Buffer.from(record.result, "base64")) };
  }
  if (record.result !== undefined && record.result !== null) throw fail("json: cannot unmarshal into Go value of type []byte");
  if (typeof record.error === "string") return { error: record.error };
  if (record.error !== undefined && record.error !== null) throw fail("json: cannot unmarshal into Go value of type string");
  return {};
}

/** Acknowledgement.String(): gogoproto's compact text (`result:"\001" `, `error:"…" `). */
export function acknowledgementText(ack: Acknowledgement): string {
  if (ack.result !== undefined) return `result:${protoTextString(ack.result)} `;
  if (ack.error !== undefined) return `error:${protoTextString(utf8(ack.error))} `;
  return "";
}

/** The proto text format's quoted bytes: \n \r \t \" \\ escaped, other bytes outside printable ASCII as three octal digits. */
function protoTextString(bytes: Uint8Array): string {
  const escapes: Record<number, string> = { 0x0a: "\\n", 0x0d: "\\r", 0x09: "\\t", 0x22: '\\"', 0x5c: "\\\\" };
  let out = '"';
  for (const byte of bytes) {
    if (escapes[byte] !== undefined) out += escapes[byte];
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, "0")}`;
  }
  return `${out}"`;
}
