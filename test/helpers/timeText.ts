/**
 * A JavaScript time (millisecond precision) as each encoding writes it, for
 * expectations computed from a block time. The forms differ only in the
 * fraction, so a test that picks the wrong one fails only for some
 * milliseconds: .580 is ".580" in proto3 JSON and ".58" in amino JSON.
 */

/** proto3 JSON (Go's jsonpb): 0, 3, 6 or 9 fraction digits, so none or all 3 of a millisecond time. */
export function proto3JsonTime(time: Date | number): string {
  return new Date(time).toISOString().replace(/\.000Z$/, "Z");
}

/** amino JSON (Go's time.Time, RFC3339Nano): the fraction's trailing zeros trimmed. */
export function aminoJsonTime(time: Date | number): string {
  return new Date(time).toISOString().replace(/\.?0+Z$/, "Z");
}

/** Go's time.RFC3339 (event attributes such as an unbonding's completion_time): whole seconds. */
export function rfc3339Seconds(time: Date | number): string {
  return new Date(time).toISOString().slice(0, 19) + "Z";
}
