/**
 * The text of a scalar field of a decoded protobuf message or of a JSON value — a string,
 * number, boolean, or a Long for 64-bit integers (whose toString is the decimal) — or
 * `fallback` when the field is unset.
 */
export function fieldText(value: unknown, fallback = ""): string {
  if (value === undefined || value === null) return fallback;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- scalar fields only: strings, numbers, booleans and Longs
  return String(value);
}
