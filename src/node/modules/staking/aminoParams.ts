import { decFromWire } from "../../../codec/decimal.js";
import { wireText } from "./genesisChecks.js";

/**
 * Parameter values as x/params stores them: the amino JSON of each value.
 * int64 and Duration (nanoseconds) are quoted strings, uint32 a bare number,
 * Dec a quoted decimal with 18 fraction digits.
 */
export function aminoDuration(duration: unknown): string {
  const d = (duration ?? {}) as { seconds?: unknown; nanos?: unknown };
  const nanos = BigInt(String(d.seconds ?? 0)) * 1_000_000_000n + BigInt(Number(d.nanos ?? 0));
  return JSON.stringify(nanos.toString());
}

export function aminoInt64(value: unknown): string {
  return JSON.stringify(String(value ?? 0));
}

/** A Dec from its wire text (string field) or wire bytes (bytes field). */
export function aminoDec(value: unknown): string {
  return JSON.stringify(decFromWire(wireText(value)));
}
