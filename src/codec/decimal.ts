/**
 * sdk.Dec travels on the wire as the text of an integer scaled by 10^18
 * ("100000000000000000" is 0.1) and is shown in JSON with exactly 18 fraction
 * digits ("0.100000000000000000").
 */
import { decScaledTextOutOfRange } from "./sdkNumberRange.js";

export const DEC_PRECISION = 18;
const SCALE = 10n ** BigInt(DEC_PRECISION);

/** Wire text (scaled integer) → JSON decimal text. Empty means zero. */
export function decFromWire(wire: string): string {
  const scaled = wire === "" ? 0n : BigInt(wire);
  return formatDec(scaled);
}

export function formatDec(scaled: bigint): string {
  const negative = scaled < 0n;
  const abs = negative ? -scaled : scaled;
  const whole = abs / SCALE;
  const frac = (abs % SCALE).toString().padStart(DEC_PRECISION, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}

/** JSON decimal text ("1", "0.5", "-2.25") → wire text. Throws on malformed input. */
export function decToWire(text: string): string {
  return parseDec(text).toString();
}

export function parseDec(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`invalid decimal "${text}"`);
  const [, sign, whole, frac = ""] = match;
  if (frac.length > DEC_PRECISION) throw new Error(`invalid decimal "${text}": more than ${DEC_PRECISION} fraction digits`);
  const scaledText = whole! + frac.padEnd(DEC_PRECISION, "0");
  if (decScaledTextOutOfRange(scaledText)) throw new Error(`invalid decimal "${text.length > 64 ? text.slice(0, 64) + "…" : text}": decimal out of range`);
  const scaled = BigInt(scaledText);
  return sign === "-" ? -scaled : scaled;
}
