/**
 * The ranges of the SDK's big numbers (sdk.Int: 256 bits; sdk.Dec: 256 + 60
 * bits of its 18-digit scaled integer), checked on the text's length before
 * any BigInt is made: BigInt parsing grows faster than linearly, so a text of
 * a million digits must be refused by counting, not by parsing.
 */

const INT_MAX = 2n ** 256n;
const DEC_SCALED_MAX = 2n ** 316n;

/** Digits of an integer text past its sign and leading zeros. */
function significantDigits(text: string): { start: number; count: number } {
  let start = text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43 ? 1 : 0;
  while (start < text.length - 1 && text.charCodeAt(start) === 48) start++;
  return { start, count: text.length - start };
}

function exceeds(text: string, max: bigint, maxDigits: number): boolean {
  const { start, count } = significantDigits(text);
  if (count > maxDigits) return true;
  if (count < maxDigits) return false;
  return BigInt(text.slice(start)) >= max;
}

/** Whether an sdk.Int's decimal text is past 256 bits ("integer out of range" in Go). */
export function intTextOutOfRange(text: string): boolean {
  return exceeds(text, INT_MAX, 78);
}

/** Whether an sdk.Dec's scaled-integer text (its wire form) is past 316 bits ("decimal out of range"). */
export function decScaledTextOutOfRange(text: string): boolean {
  return exceeds(text, DEC_SCALED_MAX, 96);
}
