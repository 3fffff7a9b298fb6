/** Go's time.Unix(0, nanos).String() in UTC: "2006-01-02 15:04:05.999999999 +0000 UTC". */
export function unixNanosText(nanos: bigint): string {
  const seconds = new Date(Number(nanos / 1_000_000_000n) * 1000).toISOString().slice(0, 19).replace("T", " ");
  const fraction = (nanos % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${seconds}${fraction ? `.${fraction}` : ""} +0000 UTC`;
}

/** Go's time.Duration String() of a duration in nanoseconds: "336h0m0s", "1.5s", "500ms", "0s". */
export function goDuration(nanos: bigint): string {
  if (nanos === 0n) return "0s";
  const sign = nanos < 0n ? "-" : "";
  const n = nanos < 0n ? -nanos : nanos;
  if (n < 1_000_000_000n) {
    const [unit, size] = n < 1000n ? ["ns", 1n] : n < 1_000_000n ? ["µs", 1000n] : ["ms", 1_000_000n];
    return `${sign}${fractionText(n, size)}${unit}`;
  }
  const hours = n / 3_600_000_000_000n;
  const minutes = (n / 60_000_000_000n) % 60n;
  const seconds = fractionText(n % 60_000_000_000n, 1_000_000_000n);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

/** value / size with the remainder as decimals, trailing zeros dropped: (1500, 1000) → "1.5". */
function fractionText(value: bigint, size: bigint): string {
  const digits = size.toString().length - 1;
  const fraction = digits > 0 ? (value % size).toString().padStart(digits, "0").replace(/0+$/, "") : "";
  return `${value / size}${fraction ? `.${fraction}` : ""}`;
}

/** Go's %v of a []byte: "[1 2 3]". */
export function byteList(bytes: Uint8Array | undefined): string {
  return `[${[...(bytes ?? [])].join(" ")}]`;
}
