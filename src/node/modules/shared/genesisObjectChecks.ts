import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { DENOM_PATTERN } from "./addressField.js";
import { fieldText } from "../../../codec/fieldText.js";

/** A 64-bit field of a decoded message (Long, number or text) as a bigint; unset is 0. */
export function big(value: unknown): bigint {
  return value == null || value === "" ? 0n : BigInt(fieldText(value));
}

/** sdk.Coins.IsValid: valid denoms, positive amounts, sorted by denom without duplicates. */
export function assertCoins(coins: unknown, field: string, { nonEmpty = false } = {}): void {
  const list = (coins ?? []) as ProtoMessage[];
  if (nonEmpty && list.length === 0) throw new Error(`${field}: must not be empty`);
  list.forEach((coin, i) => {
    const denom = fieldText(coin.denom);
    if (!DENOM_PATTERN.test(denom)) throw new Error(`${field}[${i}].denom: invalid denom "${denom}"`);
    const amount = fieldText(coin.amount);
    if (!/^\d+$/.test(amount) || BigInt(amount) === 0n) throw new Error(`${field}[${i}].amount: must be a positive integer, got "${amount}"`);
    if (i > 0 && String(list[i - 1]!.denom) >= denom) throw new Error(`${field}[${i}].denom: coins must be sorted by denom without duplicates`);
  });
}

/** Text that must parse as a JSON object. */
export function assertJsonObject(text: unknown, field: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(fieldText(text));
  } catch (err) {
    throw new Error(`${field}: not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${field}: must be a JSON object`);
  return value as Record<string, unknown>;
}

/** Rejects a second entry with the same key. */
export function uniqueKeys(field: string) {
  const seen = new Set<string>();
  return (key: string, at: string) => {
    if (seen.has(key)) throw new Error(`${at}: duplicate ${field} ${key}`);
    seen.add(key);
  };
}

/** An address as the real module writes it (sdk.AccAddress.String(): lower-case bech32). */
export function canonicalAddress(bytes: Uint8Array, prefix: string): string {
  return encodeBech32Address(prefix, bytes);
}
