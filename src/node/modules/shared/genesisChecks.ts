import { decodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { DENOM_PATTERN } from "./addressField.js";
import { DEC_ONE, decFromWire } from "./decMath.js";
import { formatDec } from "../../../codec/decimal.js";
import { fieldText } from "../../../codec/fieldText.js";

/**
 * Field-path checks for genesis validation: each throws an Error whose message
 * starts with the offending field ("validators[2].operator_address: ...").
 */
export function addressAt(value: unknown, prefix: string, path: string): Uint8Array {
  try {
    return decodeBech32Address(fieldText(value), prefix, "address");
  } catch (err) {
    throw new Error(`${path}: ${(err as Error).message}`);
  }
}

/** A Dec field (wire text) within [0, 1]. */
export function fractionAt(wire: unknown, path: string, what: string): bigint {
  const value = decFromWire(wireText(wire));
  if (value < 0n || value > DEC_ONE) throw new Error(`${path}: ${what} must be between 0 and 1, is ${formatDec(value)}`);
  return value;
}

/** A non-negative Dec field. */
export function nonNegativeDecAt(wire: unknown, path: string): bigint {
  const value = decFromWire(wireText(wire));
  if (value < 0n) throw new Error(`${path}: must not be negative, is ${formatDec(value)}`);
  return value;
}

/** A non-negative sdk.Int field. */
export function nonNegativeIntAt(text: unknown, path: string): bigint {
  const value = BigInt(fieldText(text, "0"));
  if (value < 0n) throw new Error(`${path}: must not be negative, is ${value}`);
  return value;
}

/** Coins or DecCoins: valid denoms, sorted, no duplicates, amounts not negative (positive for Coins). */
export function coinsAt(coins: unknown, path: string, options: { dec: boolean }): void {
  let previous = "";
  ((coins ?? []) as ProtoMessage[]).forEach((coin, i) => {
    const denom = fieldText(coin.denom);
    if (!DENOM_PATTERN.test(denom)) throw new Error(`${path}[${i}].denom: invalid denom "${denom}"`);
    if (denom <= previous) throw new Error(`${path}[${i}].denom: coins must be sorted by denom and unique, ${denom} follows ${previous}`);
    previous = denom;
    const amount = options.dec ? decFromWire(wireText(coin.amount)) : BigInt(fieldText(coin.amount, "0"));
    if (amount < 0n || (!options.dec && amount === 0n)) throw new Error(`${path}[${i}].amount: must be positive, is ${String(coin.amount)}`);
  });
}

/** Dec values arrive as wire text in string fields and as its UTF-8 bytes in bytes fields. */
export function wireText(value: unknown): string {
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  return fieldText(value);
}

export function timestampMillis(time: unknown): number {
  const t = (time ?? {}) as { seconds?: unknown; nanos?: unknown };
  return Number(fieldText(t.seconds, "0")) * 1000 + Math.floor(Number(t.nanos ?? 0) / 1e6);
}

export function toTimestamp(date: Date): { seconds: number; nanos: number } {
  const ms = date.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (((ms % 1000) + 1000) % 1000) * 1e6 };
}
