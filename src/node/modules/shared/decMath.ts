import { formatDec } from "../../../codec/decimal.js";

/**
 * sdk.Dec arithmetic with the real rounding rules (types/decimal.go): a Dec is
 * a bigint scaled by 10^18, the same number its wire text carries. Products and
 * quotients are either rounded half-to-even at the 18th digit (Mul, Quo) or
 * truncated toward zero (MulTruncate, QuoTruncate), exactly as the real code
 * does, so derived amounts match the real chain's to the last digit.
 */
export const DEC_ONE = 10n ** 18n;
const HALF = DEC_ONE / 2n;

/** Wire text (scaled integer, "" is zero) → Dec. */
export function decFromWire(text: string | undefined): bigint {
  return text ? BigInt(text) : 0n;
}

/** sdk.Int → Dec. */
export function decFromInt(value: bigint): bigint {
  return value * DEC_ONE;
}

/** Dec.TruncateInt */
export function decTruncateInt(dec: bigint): bigint {
  return dec / DEC_ONE;
}

/** chopPrecisionAndRound: divide by 10^18, rounding half to even. */
function chopRound(value: bigint): bigint {
  if (value < 0n) return -chopRound(-value);
  const quotient = value / DEC_ONE;
  const remainder = value % DEC_ONE;
  if (remainder < HALF) return quotient;
  if (remainder > HALF) return quotient + 1n;
  return quotient % 2n === 0n ? quotient : quotient + 1n;
}

export function decMul(a: bigint, b: bigint): bigint {
  return chopRound(a * b);
}

export function decMulTruncate(a: bigint, b: bigint): bigint {
  return (a * b) / DEC_ONE;
}

/** Dec.MulInt */
export function decMulInt(a: bigint, value: bigint): bigint {
  return a * value;
}

export function decQuo(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Error("division by zero");
  return chopRound((a * DEC_ONE * DEC_ONE) / b);
}

export function decQuoTruncate(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Error("division by zero");
  return (a * DEC_ONE * DEC_ONE) / b / DEC_ONE;
}

/** A DecCoin as the node computes with it: amount is a Dec. */
export interface DecCoin {
  denom: string;
  amount: bigint;
}

/** DecCoins from their proto form (amount as wire text). */
export function decCoinsFromProto(coins: unknown): DecCoin[] {
  return ((coins ?? []) as Array<{ denom: string; amount?: string }>).map((c) => ({ denom: c.denom, amount: decFromWire(c.amount) }));
}

export function decCoinsToProto(coins: DecCoin[]): Array<{ denom: string; amount: string }> {
  return coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
}

/** Sorted by denom, zero amounts dropped: the normal form of sdk.DecCoins. */
function normalize(coins: Map<string, bigint>): DecCoin[] {
  return [...coins]
    .filter(([, amount]) => amount !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([denom, amount]) => ({ denom, amount }));
}

export function decCoinsAdd(a: DecCoin[], b: DecCoin[]): DecCoin[] {
  const sum = new Map<string, bigint>();
  for (const c of [...a, ...b]) sum.set(c.denom, (sum.get(c.denom) ?? 0n) + c.amount);
  return normalize(sum);
}

/** DecCoins.Sub: throws when any amount would become negative (the real code panics). */
export function decCoinsSub(a: DecCoin[], b: DecCoin[]): DecCoin[] {
  const result = decCoinsAdd(
    a,
    b.map((c) => ({ denom: c.denom, amount: -c.amount })),
  );
  const negative = result.find((c) => c.amount < 0n);
  if (negative) throw new Error(`negative coin amount: ${negative.denom}`);
  return result;
}

export function decCoinsMulDecTruncate(coins: DecCoin[], d: bigint): DecCoin[] {
  return normalize(new Map(coins.map((c) => [c.denom, decMulTruncate(c.amount, d)])));
}

export function decCoinsQuoDecTruncate(coins: DecCoin[], d: bigint): DecCoin[] {
  return normalize(new Map(coins.map((c) => [c.denom, decQuoTruncate(c.amount, d)])));
}

/** DecCoins.TruncateDecimal: the whole coins. */
export function decCoinsTruncate(coins: DecCoin[]): Array<{ denom: string; amount: bigint }> {
  return coins.map((c) => ({ denom: c.denom, amount: decTruncateInt(c.amount) })).filter((c) => c.amount !== 0n);
}

/** DecCoins.MulDec: each amount × d, rounded (zero products dropped). */
export function decCoinsMulDec(coins: DecCoin[], d: bigint): DecCoin[] {
  return normalize(new Map(coins.map((c) => [c.denom, decMul(c.amount, d)])));
}

/** DecCoins.Intersect: the smaller amount of each denom both hold. */
export function decCoinsIntersect(a: DecCoin[], b: DecCoin[]): DecCoin[] {
  const other = new Map(b.map((c) => [c.denom, c.amount]));
  return normalize(new Map(a.map((c) => [c.denom, other.has(c.denom) ? (c.amount < other.get(c.denom)! ? c.amount : other.get(c.denom)!) : 0n])));
}

/** DecCoins.TruncateDecimal: the whole coins and the decimal remainder. */
export function decCoinsSplit(coins: DecCoin[]): { whole: Array<{ denom: string; amount: bigint }>; remainder: DecCoin[] } {
  const whole = decCoinsTruncate(coins);
  const remainder = normalize(new Map(coins.map((c) => [c.denom, c.amount - decTruncateInt(c.amount) * DEC_ONE])));
  return { whole, remainder };
}

/** sdk.NewDecCoinsFromCoins */
export function decCoinsFromCoins(coins: Array<{ denom: string; amount: bigint }>): DecCoin[] {
  return normalize(new Map(coins.map((c) => [c.denom, decFromInt(c.amount)])));
}

/** DecCoins.String(): "1.500000000000000000uhub,2.000000000000000000ugold", "" when empty. */
export function formatDecCoins(coins: DecCoin[]): string {
  return coins.map((c) => `${formatDec(c.amount)}${c.denom}`).join(",");
}

/** DecCoins.SafeSub: the difference, or undefined when any amount would become negative. */
export function decCoinsSafeSub(a: DecCoin[], b: DecCoin[]): DecCoin[] | undefined {
  try {
    return decCoinsSub(a, b);
  } catch {
    return undefined;
  }
}
