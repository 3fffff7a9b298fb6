import Long from "long";
import { goJson } from "../../../codec/amino/aminoJson.js";
import { decFromWire } from "../../../codec/decimal.js";

/**
 * The value of a parameter as x/params stores it: the legacy amino JSON of the
 * Go value. 64-bit integers are JSON strings ("\"256\""), Dec values strings with
 * 18 decimals, bools and lists plain JSON.
 */
export function aminoUint64(value: unknown): string {
  return goJson(Long.isLong(value) ? (value as Long).toString() : String(value ?? 0));
}

export function aminoBool(value: unknown): string {
  return value === true ? "true" : "false";
}

export function aminoString(value: unknown): string {
  return goJson(String(value ?? ""));
}

/** An sdk.Dec field, given as its wire text (the integer scaled by 10^18). */
export function aminoDec(wire: unknown): string {
  return goJson(decFromWire(String(wire ?? "")));
}

/** Any other JSON value (lists, structs already shaped as amino writes them). */
export function aminoJson(value: unknown): string {
  return goJson(value);
}
