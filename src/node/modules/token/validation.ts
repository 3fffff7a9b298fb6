import { formatDec, parseDec } from "../../../codec/decimal.js";

/**
 * The token module's validation rules and messages (irismod types/validation.go
 * and params.go). Each check returns the real error text ("<detail>: <registered
 * description>") or undefined when the value is valid.
 */
const MAXIMUM_INIT_SUPPLY = 100_000_000_000n;
export const MAXIMUM_MAX_SUPPLY = 2n ** 64n - 1n;
const MAXIMUM_SCALE = 9;
export const MAXIMUM_NAME_LENGTH = 32;

const SYMBOL_PATTERN_TEXT = "^[a-z][a-z0-9]{2,63}$";
const SYMBOL_PATTERN = new RegExp(SYMBOL_PATTERN_TEXT);
const KEYWORDS = "peg|ibc|swap";
const KEYWORD_PATTERN = new RegExp(`^(${KEYWORDS}).*`);

// Registered descriptions of the token module's errors.
const INVALID_NAME = "invalid token name";
const INVALID_MIN_UNIT = "invalid token min unit";
const INVALID_SYMBOL = "invalid standard denom";
const INVALID_INIT_SUPPLY = "invalid token initial supply";
const INVALID_MAX_SUPPLY = "invalid token maximum supply";
const INVALID_SCALE = "invalid token scale";

export function symbolError(symbol: string): string | undefined {
  if (!SYMBOL_PATTERN.test(symbol)) {
    return `invalid symbol: ${symbol}, only accepts english lowercase letters and numbers, length [3, 64], and begin with an english letter, regexp: ${SYMBOL_PATTERN_TEXT}: ${INVALID_SYMBOL}`;
  }
  return keywordError(symbol);
}

function minUnitError(minUnit: string): string | undefined {
  if (!SYMBOL_PATTERN.test(minUnit)) {
    return `invalid minUnit: ${minUnit}, only accepts english lowercase letters and numbers, length [3, 64], and begin with an english letter, regexp: ${SYMBOL_PATTERN_TEXT}: ${INVALID_MIN_UNIT}`;
  }
  return keywordError(minUnit);
}

function keywordError(denom: string): string | undefined {
  return KEYWORD_PATTERN.test(denom) ? `invalid token: ${denom}, can not begin with keyword: (${KEYWORDS}): ${INVALID_SYMBOL}` : undefined;
}

/** The fields of a Token that validation reads. */
export interface TokenFields {
  symbol: string;
  name: string;
  scale: number;
  min_unit: string;
  initial_supply: bigint;
  max_supply: bigint;
}

/** ValidateToken, field by field: [field, message] of the first problem. The owner is checked by the caller (bech32). */
export function tokenFieldsError(token: TokenFields): [string, string] | undefined {
  if (token.name.length === 0 || token.name.length > MAXIMUM_NAME_LENGTH) {
    return ["name", `invalid token name ${token.name}, only accepts length (0, ${MAXIMUM_NAME_LENGTH}]: ${INVALID_NAME}`];
  }
  const symbol = symbolError(token.symbol);
  if (symbol) return ["symbol", symbol];
  const minUnit = minUnitError(token.min_unit);
  if (minUnit) return ["min_unit", minUnit];
  if (token.initial_supply > MAXIMUM_INIT_SUPPLY) {
    return ["initial_supply", `invalid token initial supply ${token.initial_supply}, only accepts value [0, ${MAXIMUM_INIT_SUPPLY}]: ${INVALID_INIT_SUPPLY}`];
  }
  if (token.max_supply < token.initial_supply) {
    return [
      "max_supply",
      `invalid token max supply ${token.max_supply}, only accepts value [${token.initial_supply}, ${MAXIMUM_MAX_SUPPLY}]: ${INVALID_MAX_SUPPLY}`,
    ];
  }
  if (token.scale > MAXIMUM_SCALE) {
    return ["scale", `invalid token scale ${token.scale}, only accepts value [0, ${MAXIMUM_SCALE}]: ${INVALID_SCALE}`];
  }
  return undefined;
}

/** A Dec parameter that must lie in [0, 1] (token_tax_rate, mint_token_fee_ratio). */
export function unitIntervalError(scaled: bigint, what: string): string | undefined {
  const one = parseDec("1");
  if (scaled < 0n || scaled > one) return `${what} [${formatDec(scaled)}] should be between [0, 1]`;
  return undefined;
}

/** The decoder's message without its "invalid <field> "<value>": " lead, which the real text does not have. */
export function reasonOf(err: unknown): string {
  return (err as Error).message.replace(/^invalid \S+ "[^"]*": /, "");
}
