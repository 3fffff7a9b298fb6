import { skipDigits } from "./numberText.js";

/** A text Go's time.ParseDuration refuses; the message is Go's. */
export class GoDurationError extends Error {}

const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, "\u00b5s": 1e-6, "\u03bcs": 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
const MAX_SECONDS = 9223372036.854775807; // Go's Duration is int64 nanoseconds

/**
 * Seconds of a Go duration ("1h30m", "-1.5s", "0"), read by one left-to-right
 * scan with time.ParseDuration's rules and messages: an optional sign, then
 * numbers ("1", "1.", ".5") each followed by a unit (ns, us, µs, ms, s, m, h).
 */
export function goDurationSeconds(text: string): number {
  const invalid = () => new GoDurationError(`time: invalid duration ${JSON.stringify(text)}`);
  let i = 0;
  const sign = text.charCodeAt(0);
  if (sign === 45 || sign === 43) i++;
  const negative = sign === 45;
  if (text.length === i + 1 && text[i] === "0") return 0;
  if (i === text.length) throw invalid();
  let total = 0;
  while (i < text.length) {
    const intEnd = skipDigits(text, i);
    let value = intEnd > i ? Number(text.slice(i, intEnd)) : 0;
    let hasDigits = intEnd > i;
    i = intEnd;
    if (text[i] === ".") {
      const fractionEnd = skipDigits(text, i + 1);
      if (fractionEnd > i + 1) value += Number(`0.${text.slice(i + 1, fractionEnd)}`);
      hasDigits ||= fractionEnd > i + 1;
      i = fractionEnd;
    }
    if (!hasDigits) throw invalid();
    const unitStart = i;
    while (i < text.length && text[i] !== "." && skipDigits(text, i) === i) i++;
    if (i === unitStart) throw new GoDurationError(`time: missing unit in duration ${JSON.stringify(text)}`);
    const unit = text.slice(unitStart, i);
    const seconds = UNIT_SECONDS[unit];
    if (seconds === undefined) throw new GoDurationError(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    total += value * seconds;
    if (!(total <= MAX_SECONDS)) throw invalid();
  }
  return negative ? -total : total;
}
