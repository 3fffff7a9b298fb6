/**
 * Integers and bytes written as text — query strings, path variables, headers
 * and JSON strings of both route families go through these two functions, so
 * a value means the same thing wherever a client sends it.
 */

/** Integer types of proto fields; `int64` is also Go's `int` of the legacy handlers. */
export type IntegerType = "int32" | "uint32" | "int64" | "uint64";

const RANGE: Record<IntegerType, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/** A text that is not an integer of the type ("syntax"), or one outside its range ("range"), as Go's strconv tells them apart. */
export class IntegerTextError extends Error {
  constructor(
    readonly reason: "syntax" | "range",
    readonly text: string,
    readonly type: IntegerType,
  ) {
    super(reason === "syntax" ? `"${text}" is not a valid ${type}` : `"${text}" is out of the ${type} range`);
  }
}

/**
 * An integer in its one decimal form: digits without leading zeros, a minus
 * sign only where the type is signed. No "+", spaces, BOM, exponent, or
 * 0x/0o/0b prefixes. Leading zeros are refused because the real families
 * disagree on them: grpc-gateway (ParseInt base 0) reads "010" as octal 8,
 * the legacy handlers (base 10) as 10.
 */
export function parseIntegerText(text: string, type: IntegerType): bigint {
  const signed = !type.startsWith("u");
  if (!(signed ? /^-?(0|[1-9][0-9]*)$/ : /^(0|[1-9][0-9]*)$/).test(text)) throw new IntegerTextError("syntax", text, type);
  // 20 characters hold every 64-bit value ("-9223372036854775808"); a longer text is refused before BigInt parses it
  if (text.length > 20) throw new IntegerTextError("range", text, type);
  const value = BigInt(text);
  const [min, max] = RANGE[type];
  if (value < min || value > max) throw new IntegerTextError("range", text, type);
  return value;
}

/** An integer given as a JSON number (a body field): exact only up to 2^53, so larger values must come as strings. */
export function integerFromNumber(value: number, type: IntegerType): bigint {
  const text = String(value);
  if (!Number.isSafeInteger(value)) throw new IntegerTextError(Number.isInteger(value) ? "range" : "syntax", text, type);
  return parseIntegerText(text, type);
}

export class Base64TextError extends Error {
  constructor(readonly text: string) {
    super(`"${text.length > 64 ? `${text.slice(0, 64)}…` : text}" is not base64 (standard or URL-safe alphabet, padding optional)`);
  }
}

/**
 * Bytes in standard or URL-safe base64 — one alphabet per value — as
 * grpc-gateway's runtime.Bytes reads them (StdEncoding, then URLEncoding).
 * Padding may be left out (it carries no information); when present it must
 * be complete. A length that no byte string encodes to (4n+1) is refused.
 */
export function parseBase64(text: string): Uint8Array {
  const match = /^(?:([A-Za-z0-9+/]*)|([A-Za-z0-9_-]*))(={0,2})$/.exec(text);
  const body = match?.[1] ?? match?.[2];
  const padding = match?.[3] ?? "";
  if (body === undefined || body.length % 4 === 1) throw new Base64TextError(text);
  if (padding && (body.length + padding.length) % 4 !== 0) throw new Base64TextError(text);
  return new Uint8Array(Buffer.from(body, match![1] !== undefined ? "base64" : "base64url"));
}
