import { DEC_PRECISION } from "../../../codec/decimal.js";

/**
 * The token module's fee formula (irismod keeper/fees.go), in sdk.Dec
 * arithmetic: scaled bigints with 18 fraction digits.
 *
 * issue fee (main units) = trunc(base fee / factor), at least 1, where
 * factor = round2((ln(len(symbol)) / ln 3)^4); mint fee = trunc(issue fee × ratio).
 * Both are then converted to the min unit of the fee token.
 */
const ONE = 10n ** BigInt(DEC_PRECISION);
const FEE_FACTOR_BASE = 3;
const FEE_FACTOR_EXP = 4;

/** What the fee computation needs of the token the base fee is paid in. */
export interface FeeToken {
  symbol: string;
  min_unit: string;
  scale: number;
}

export interface FeeParams {
  /** issue_token_base_fee amount, in units of its denom. */
  baseFeeAmount: bigint;
  baseFeeDenom: string;
  /** mint_token_fee_ratio as a scaled Dec. */
  mintTokenFeeRatio: bigint;
}

export interface Fees {
  issueFee: { denom: string; amount: string };
  mintFee: { denom: string; amount: string };
}

/**
 * The fee factor of a name as a scaled Dec. The real code formats a float64
 * with two decimals; for every valid symbol length (3..64) the value is far
 * from a rounding tie, so JavaScript's toFixed gives the same digits.
 */
export function feeFactor(name: string): bigint {
  const length = new TextEncoder().encode(name).length;
  if (length === 0) throw new Error("the length of name must be greater than 0");
  const factor = Math.pow(Math.log(length) / Math.log(FEE_FACTOR_BASE), FEE_FACTOR_EXP);
  return decFromText(factor.toFixed(2));
}

/** The issue fee of a symbol in units of the base fee's denom (calcTokenIssueFee). */
export function issueFeeAmount(symbol: string, baseFeeAmount: bigint): bigint {
  const fee = decQuo(baseFeeAmount * ONE, feeFactor(symbol));
  return fee > ONE ? fee / ONE : 1n;
}

/** The mint fee in units of the base fee's denom: trunc(issue fee × ratio). */
export function mintFeeAmount(symbol: string, baseFeeAmount: bigint, mintTokenFeeRatio: bigint): bigint {
  return (issueFeeAmount(symbol, baseFeeAmount) * mintTokenFeeRatio) / ONE;
}

/** Token.ToMinCoin: an amount of the token's symbol (or min unit) as a coin of its min unit. */
export function toMinCoin(token: FeeToken, denom: string, amount: bigint): { denom: string; amount: string } {
  if (denom === token.min_unit) return { denom, amount: amount.toString() };
  if (denom !== token.symbol) throw new Error(`token not match: ${denom} is neither ${token.symbol} nor ${token.min_unit}`);
  return { denom: token.min_unit, amount: (amount * 10n ** BigInt(token.scale)).toString() };
}

/** The fees the Fees query answers for a symbol. */
export function tokenFees(symbol: string, params: FeeParams, feeToken: FeeToken): Fees {
  return {
    issueFee: toMinCoin(feeToken, params.baseFeeDenom, issueFeeAmount(symbol, params.baseFeeAmount)),
    mintFee: toMinCoin(feeToken, params.baseFeeDenom, mintFeeAmount(symbol, params.baseFeeAmount, params.mintTokenFeeRatio)),
  };
}

/** sdk.Dec Quo: both operands scaled; the truncated quotient is rounded half to even at the 18th digit (chopPrecisionAndRound). */
export function decQuo(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Error("division by zero");
  return chopPrecisionAndRound((a * ONE * ONE) / b);
}

function chopPrecisionAndRound(value: bigint): bigint {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const quotient = abs / ONE;
  const remainder = abs % ONE;
  const half = ONE / 2n;
  const up = remainder > half || (remainder === half && quotient % 2n === 1n);
  const rounded = up ? quotient + 1n : quotient;
  return negative ? -rounded : rounded;
}

function decFromText(text: string): bigint {
  const [whole, frac = ""] = text.split(".");
  return BigInt(whole!) * ONE + BigInt(frac.padEnd(DEC_PRECISION, "0"));
}
