import { sdkError } from "../../../abci/txError.js";
import { plainError } from "../../shared/errorTable.js";
import { transferError } from "./errors.js";
import { identifierError } from "../host/identifiers.js";

/** ICS-20 FungibleTokenPacketData, decoded. */
export interface TokenPacketData {
  denom: string;
  amount: bigint;
  sender: string;
  receiver: string;
}

const FIELDS = ["denom", "amount", "sender", "receiver"] as const;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * types.ModuleCdc.UnmarshalJSON of the transfer module (a ProtoCodec: jsonpb, unknown fields refused)
 * into FungibleTokenPacketData. Failing is ErrUnknownRequest "cannot unmarshal ICS-20 transfer packet
 * data: …", which fails the transaction. The texts after the colon follow jsonpb's for the cases
 * checked here; Go's JSON syntax error texts are not reproduced (the JavaScript parser's are given).
 */
export function decodeTokenPacketData(bytes: Uint8Array): TokenPacketData {
  const fail = (why: string) => sdkError("unknownRequest", `cannot unmarshal ICS-20 transfer packet data: ${why}`);
  const record = jsonpbObject(bytes, FIELDS, "types.FungibleTokenPacketData", fail);
  const text = (key: string): string => {
    const field = record[key];
    if (field === undefined || field === null) return "";
    if (typeof field !== "string") throw fail(`json: cannot unmarshal ${jsonKind(field)} into Go value of type string`);
    return field;
  };
  return { denom: text("denom"), amount: uint64Field(record.amount, fail), sender: text("sender"), receiver: text("receiver") };
}

/** The JSON object jsonpb decodes a message from: parsed, an object, no field the message lacks. */
export function jsonpbObject(bytes: Uint8Array, fields: readonly string[], typeName: string, fail: (why: string) => Error): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    throw fail(bytes.length === 0 ? "unexpected end of JSON input" : (err as Error).message);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw fail(`json: cannot unmarshal ${jsonKind(value)} into Go value of type map[string]json.RawMessage`);
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!fields.includes(key)) throw fail(`unknown field "${key}" in ${typeName}`);
  }
  return record;
}

/** jsonpb takes a uint64 as a JSON number or a quoted decimal. */
function uint64Field(value: unknown, fail: (why: string) => Error): bigint {
  if (value === undefined || value === null) return 0n;
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : undefined;
  if (text === undefined || !/^\d{1,20}$/.test(text) || BigInt(text) > UINT64_MAX) {
    throw fail(`json: cannot unmarshal ${JSON.stringify(value)} into Go value of type uint64`);
  }
  return BigInt(text);
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value === "boolean" ? "bool" : typeof value;
}

/** FungibleTokenPacketData.ValidateBasic (addresses are not decoded here: they belong to two chains). */
export function checkTokenPacketData(data: TokenPacketData): void {
  if (data.amount === 0n) throw transferError("invalidAmount", "amount cannot be 0");
  if (data.sender.trim() === "") throw sdkError("invalidAddress", "sender address cannot be blank");
  if (data.receiver.trim() === "") throw sdkError("invalidAddress", "receiver address cannot be blank");
  checkPrefixedDenom(data.denom);
}

/** ValidatePrefixedDenom: a base denom alone, or "{port}/{channel}/…/{base}" with valid identifier pairs. */
function checkPrefixedDenom(denom: string): void {
  const parts = denom.split("/");
  if (parts.length === 1 && denom.trim() !== "") return;
  if (parts[parts.length - 1]!.trim() === "") throw transferError("invalidDenomForTransfer", "base denomination cannot be blank");
  const identifiers = parts.slice(0, -1);
  if (identifiers.length === 0 || identifiers.length % 2 !== 0) {
    throw plainError(`trace info must come in pairs of port and channel identifiers '{portID}/{channelID}', got the identifiers: [${identifiers.join(" ")}]`);
  }
  for (let i = 0; i < identifiers.length; i += 2) {
    const port = identifierError(identifiers[i]!, "port");
    if (port) throw plainError(`invalid port ID at position ${i}: ${port}`);
    const channel = identifierError(identifiers[i + 1]!, "channel");
    if (channel) throw plainError(`invalid channel ID at position ${i}: ${channel}`);
  }
}
