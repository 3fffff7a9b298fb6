import { goJson } from "../../../codec/amino/aminoJson.js";
import { decFromWire, parseDec } from "../../../codec/decimal.js";
import { wireText } from "./genesisChecks.js";
import { fieldText } from "../../../codec/fieldText.js";

/**
 * Parameter values as x/params stores them: the amino JSON of each value.
 * int64 and Duration (nanoseconds) are quoted strings, uint32 a bare number,
 * Dec a quoted decimal with 18 fraction digits.
 */
export function aminoDuration(duration: unknown): string {
  const d = (duration ?? {}) as { seconds?: unknown; nanos?: unknown };
  const nanos = BigInt(fieldText(d.seconds, "0")) * 1_000_000_000n + BigInt(Number(d.nanos ?? 0));
  return JSON.stringify(nanos.toString());
}

export function aminoInt64(value: unknown): string {
  return JSON.stringify(fieldText(value, "0"));
}

/** A Dec from its wire text (string field) or wire bytes (bytes field). */
export function aminoDec(value: unknown): string {
  return JSON.stringify(decFromWire(wireText(value)));
}

/** uint64 is written as int64 is: a quoted decimal. @alias */
export const aminoUint64 = aminoInt64;

export function aminoBool(value: unknown): string {
  return value === true ? "true" : "false";
}

export function aminoString(value: unknown): string {
  return goJson(fieldText(value));
}

/** Any other JSON value (lists, structs already shaped as amino writes them). */
export function aminoJson(value: unknown): string {
  return goJson(value);
}

/** A parameter key the subspace does not have (the real Subspace.Update panics on it). */
export class ParamKeyError extends Error {
  override readonly name = "ParamKeyError";
}

/** Checked by name: the module that throws it may be loaded apart from the one that catches it. */
export const isParamKeyError = (err: unknown) => (err as Error | undefined)?.name === "ParamKeyError";

/**
 * Decoding of a parameter-change value: the amino JSON of the Go type.
 * Errors carry a message close to the real decoder's.
 */
export function parseAminoValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`invalid character in JSON value ${JSON.stringify(text)}: ${(err as Error).message}`);
  }
}

/** int64 values travel as JSON strings of the integer. */
export function aminoInt64Value(value: unknown): bigint {
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) throw new Error(`invalid int64 value ${JSON.stringify(value)}: expected a quoted integer`);
  return BigInt(value);
}

export function aminoUint32Value(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new Error(`invalid uint32 value ${JSON.stringify(value)}`);
  return value;
}

/** A Dec as its wire text (the integer scaled by 10^18). */
export function aminoDecValue(value: unknown): bigint {
  if (typeof value !== "string") throw new Error(`invalid decimal value ${JSON.stringify(value)}: expected a quoted decimal`);
  return parseDec(value);
}

/** A time.Duration: a quoted integer of nanoseconds. */
export function aminoDurationValue(value: unknown): { seconds: string; nanos: number } {
  const nanos = aminoInt64Value(value);
  return { seconds: (nanos / 1_000_000_000n).toString(), nanos: Number(nanos % 1_000_000_000n) };
}

export function aminoStringValue(value: unknown): string {
  if (typeof value !== "string") throw new Error(`invalid string value ${JSON.stringify(value)}`);
  return value;
}

export function aminoBoolValue(value: unknown): boolean {
  if (typeof value !== "boolean") throw new Error(`invalid bool value ${JSON.stringify(value)}`);
  return value;
}

export const durationNanos = (duration: { seconds: string | number; nanos: number }) =>
  BigInt(String(duration.seconds)) * 1_000_000_000n + BigInt(duration.nanos);
