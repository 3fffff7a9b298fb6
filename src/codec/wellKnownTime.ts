import Long from "long";

/** Fraction digits as Go's jsonpb writes them: 0, 3, 6 or 9. */
function fraction(nanos: number): string {
  if (nanos === 0) return "";
  const nine = nanos.toString().padStart(9, "0");
  if (nanos % 1_000_000 === 0) return "." + nine.slice(0, 3);
  if (nanos % 1_000 === 0) return "." + nine.slice(0, 6);
  return "." + nine;
}

export function toNumber(value: Long | number | string | null | undefined): number {
  if (value == null) return 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") return Number(value);
  return value.toNumber();
}

/** google.protobuf.Timestamp → RFC 3339 UTC text, e.g. "2021-03-01T12:00:00.123Z". */
export function formatTimestamp(seconds: Long | number, nanos: number): string {
  const date = new Date(toNumber(seconds) * 1000);
  if (Number.isNaN(date.getTime())) throw new Error("timestamp out of range");
  return date.toISOString().slice(0, 19) + fraction(nanos) + "Z";
}

/** RFC 3339 text → {seconds, nanos}. Accepts any offset; fractions up to 9 digits. */
export function parseTimestamp(text: string): { seconds: Long; nanos: number } {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
  if (!match) throw new Error(`invalid timestamp "${text}", expected RFC 3339`);
  const [, base, frac = "", zone] = match;
  const millis = Date.parse(`${base}${zone!.toUpperCase()}`);
  if (Number.isNaN(millis)) throw new Error(`invalid timestamp "${text}"`);
  return { seconds: Long.fromNumber(Math.floor(millis / 1000)), nanos: Number(frac.padEnd(9, "0")) };
}

/** google.protobuf.Duration → "1.500s" style text. */
export function formatDuration(seconds: Long | number, nanos: number): string {
  const secs = Long.isLong(seconds) ? seconds : Long.fromNumber(seconds);
  const negative = secs.isNegative() || nanos < 0;
  const whole = negative ? secs.negate().toString() : secs.toString();
  return `${negative ? "-" : ""}${whole}${fraction(Math.abs(nanos))}s`;
}

export function parseDuration(text: string): { seconds: Long; nanos: number } {
  const match = /^(-?)(\d+)(?:\.(\d{1,9}))?s$/.exec(text);
  if (!match) throw new Error(`invalid duration "${text}", expected e.g. "1.5s"`);
  const [, sign, whole, frac = ""] = match;
  const seconds = Long.fromString(whole!);
  const nanos = Number(frac.padEnd(9, "0"));
  return sign ? { seconds: seconds.negate(), nanos: -nanos } : { seconds, nanos };
}
