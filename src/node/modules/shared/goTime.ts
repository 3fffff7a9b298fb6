import { fieldText } from "../../../codec/fieldText.js";

/**
 * Go's time formats as the real events and strings show them (times here
 * have millisecond precision; Go trims trailing zeros of the fraction).
 */

function fraction(date: Date): string {
  const ms = date.getUTCMilliseconds();
  return ms === 0 ? "" : `.${String(ms).padStart(3, "0").replace(/0+$/, "")}`;
}

function base(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** time.RFC3339: "2006-01-02T15:04:05Z", no fraction; Go's zero time for undefined. */
export function rfc3339(date: Date | undefined): string {
  return date ? `${base(date)}Z` : "0001-01-01T00:00:00Z";
}

/** time.RFC3339Nano: the fraction without trailing zeros. */
export function rfc3339Nano(date: Date): string {
  return `${base(date)}${fraction(date)}Z`;
}

/** time.Time.String() of a UTC time: "2006-01-02 15:04:05.999999999 +0000 UTC". */
export function goTimeString(date: Date): string {
  return `${base(date).replace("T", " ")}${fraction(date)} +0000 UTC`;
}

/** A google.protobuf.Timestamp of Go's zero time (0001-01-01T00:00:00Z). */
export const ZERO_TIMESTAMP = { seconds: -62135596800, nanos: 0 };

/** time.Duration.String(): "1h2m3.5s", "0s", "-1s", "1.5ms". */
export function goDuration(nanos: bigint): string {
  if (nanos === 0n) return "0s";
  const sign = nanos < 0n ? "-" : "";
  const abs = nanos < 0n ? -nanos : nanos;
  const fractionText = (value: bigint, unit: bigint) => {
    const whole = value / unit;
    const rest = (value % unit)
      .toString()
      .padStart(unit.toString().length - 1, "0")
      .replace(/0+$/, "");
    return rest ? `${whole}.${rest}` : `${whole}`;
  };
  if (abs < 1000n) return `${sign}${abs}ns`;
  if (abs < 1_000_000n) return `${sign}${fractionText(abs, 1000n)}µs`;
  if (abs < 1_000_000_000n) return `${sign}${fractionText(abs, 1_000_000n)}ms`;
  const hours = abs / 3_600_000_000_000n;
  const minutes = (abs / 60_000_000_000n) % 60n;
  const seconds = fractionText(abs % 60_000_000_000n, 1_000_000_000n);
  return `${sign}${hours > 0n ? `${hours}h` : ""}${hours > 0n || minutes > 0n ? `${minutes}m` : ""}${seconds}s`;
}

/** A google.protobuf.Timestamp as decoded ({seconds, nanos}) → Date (millisecond precision). */
export function timestampDate(time: { seconds?: unknown; nanos?: unknown } | undefined): Date {
  const seconds = Number(fieldText(time?.seconds, "0"));
  const nanos = Number(time?.nanos ?? 0);
  return new Date(seconds * 1000 + Math.floor(nanos / 1e6));
}

/** A google.protobuf.Duration as decoded → milliseconds. */
export function durationMs(duration: unknown): number {
  const d = (duration ?? {}) as { seconds?: unknown; nanos?: unknown };
  return Number(fieldText(d.seconds, "0")) * 1000 + Math.floor(Number(d.nanos ?? 0) / 1e6);
}
