import Long from "long";
import { parseTimestamp } from "../codec/wellKnownTime.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";

/** Consensus-engine RPC JSON → the values of proto messages: uppercase hex and base64 to bytes, times to Timestamps. */
export function hexBytes(text: string | undefined | null): Uint8Array {
  return new Uint8Array(Buffer.from(text ?? "", "hex"));
}

export function base64Bytes(text: string | undefined | null): Uint8Array {
  return new Uint8Array(Buffer.from(text ?? "", "base64"));
}

export function timestamp(text: string | undefined): ProtoMessage {
  if (!text) return { seconds: Long.ZERO, nanos: 0 };
  return parseTimestamp(text);
}

export function int64(text: string | number | undefined): Long {
  return Long.fromString(String(text ?? "0"));
}
