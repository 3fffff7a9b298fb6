import { sdkError } from "../../abci/txError.js";
import { coinsFromProto } from "../bank/keeper.js";
import { DENOM_PATTERN } from "./addressField.js";

/** sdk.Coins.IsValid: sorted unique valid denoms with positive amounts (an empty list is valid). */
export function coinsAreValid(coins: Array<{ denom: string; amount: bigint }>): boolean {
  return coins.every((coin, i) => DENOM_PATTERN.test(coin.denom) && coin.amount > 0n && (i === 0 || coins[i - 1]!.denom < coin.denom));
}

/** sdk.Coins.IsValid (an empty list is valid), else ErrInvalidCoins with the coins. */
export function validCoinsOrEmpty(value: unknown): void {
  const coins = coinsFromProto(value);
  if (!coinsAreValid(coins)) throw sdkError("invalidCoins", coins.map((c) => `${c.amount}${c.denom}`).join(","));
}

/** Coins.IsAllGTE: every coin of `wanted` is matched by at least as much in `have` (true when nothing is wanted). */
export function isAllGTE(have: Array<{ denom: string; amount: bigint }>, wanted: Array<{ denom: string; amount: bigint }>): boolean {
  if (wanted.length === 0) return true;
  if (have.length === 0) return false;
  return wanted.every((w) => (have.find((h) => h.denom === w.denom)?.amount ?? 0n) >= w.amount);
}
