import { sha256 } from "@noble/hashes/sha2.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { utf8 } from "../../../store/moduleStore.js";
import { checkIdentifier } from "../host/identifiers.js";
import { fieldText } from "../../../../codec/fieldText.js";

/** "{path}/{base_denom}", or the base denom alone when the trace is empty. */
export function fullDenomPath(trace: ProtoMessage): string {
  const path = fieldText(trace.path);
  const base = fieldText(trace.base_denom);
  return path === "" ? base : `${path}/${base}`;
}

/** SHA-256 of the full denom path: the key of a trace, and the hex hash in "ibc/{HASH}" denoms. */
export function denomTraceHash(trace: ProtoMessage): Uint8Array {
  return sha256(utf8(fullDenomPath(trace)));
}

export function upperHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex").toUpperCase();
}

/** ParseHexHash of the real transfer module: hex text (either case) of a 32-byte hash; the Go error text otherwise. */
export function parseHexHash(text: string): Uint8Array {
  for (let i = 0; i < text.length; i++) {
    if (!/[0-9a-fA-F]/.test(text[i]!)) throw new Error(`encoding/hex: invalid byte: ${goRune(text.codePointAt(i)!)}`);
  }
  if (text.length % 2 === 1) throw new Error("encoding/hex: odd length hex string");
  const bytes = Uint8Array.from(Buffer.from(text, "hex"));
  if (bytes.length > 0 && bytes.length !== 32) throw new Error(`expected size to be 32 bytes, got ${bytes.length} bytes`);
  return bytes;
}

/** Go's %#U: "U+0067 'g'" (the quoted character only when printable). */
function goRune(code: number): string {
  const hex = code.toString(16).toUpperCase().padStart(4, "0");
  const char = String.fromCodePoint(code);
  return /\p{L}|\p{N}|\p{P}|\p{S}/u.test(char) ? `U+${hex} '${char}'` : `U+${hex}`;
}

/** DenomTrace.Validate: a trace is "{port}/{channel}" pairs and a base denom that is not blank. */
export function checkDenomTrace(trace: ProtoMessage, field: string): void {
  const path = fieldText(trace.path);
  if (fieldText(trace.base_denom).trim() === "") throw new Error(`${field}.base_denom: base denomination cannot be blank`);
  if (path === "") return;
  const identifiers = path.split("/");
  if (identifiers.length % 2 !== 0) {
    throw new Error(
      `${field}.path: trace info must come in pairs of port and channel identifiers '{portID}/{channelID}', got the identifiers: ${identifiers.join(" ")}`,
    );
  }
  for (let i = 0; i < identifiers.length; i += 2) {
    checkIdentifier("port", identifiers[i], `${field}.path (port ID at position ${i})`);
    checkIdentifier("channel", identifiers[i + 1], `${field}.path (channel ID at position ${i})`);
  }
}
