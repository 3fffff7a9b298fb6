import { decodeBech32Address } from "../codec/bech32.js";
import { parseDec } from "../codec/decimal.js";
import { isDecimalFloatText } from "../codec/numberText.js";
import { isJsonObject } from "../codec/json/jsonNumberForms.js";
import { intTextOutOfRange } from "../codec/sdkNumberRange.js";
import { LegacyError } from "./legacyErrors.js";
import { integerParam, strconvText } from "./legacyParams.js";

export interface Coin {
  denom: string;
  amount: bigint;
}

/** A DecCoin: amount scaled by 10^18. */
interface DecCoin {
  denom: string;
  scaled: bigint;
}

/** The base_req of a generate-only POST (rest.BaseReq), strings trimmed. */
export interface BaseReq {
  from: string;
  memo: string;
  chainId: string;
  accountNumber: string;
  sequence: string;
  timeoutHeight: string;
  fees: Coin[];
  gasPrices: DecCoin[];
  gas: string;
  gasAdjustment: string;
  simulate: boolean;
  /** Whether every coin of fees / gas_prices is valid (sdk.Coins.IsValid: denoms, positive amounts, sorted, no duplicates). */
  feesValid: boolean;
  gasPricesValid: boolean;
}

const DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;

/** Reads base_req; a value of the wrong type is a 400 "failed to decode JSON payload". */
export function readBaseReq(json: unknown): BaseReq {
  const raw = json ?? {};
  if (!isJsonObject(raw)) throw payloadError("base_req", "expected an object");
  const text = (key: string, fallback = ""): string => {
    const value = raw[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value === "string") return value.trim();
    if (typeof value === "number" && Number.isInteger(value)) return String(value);
    throw payloadError(`base_req.${key}`, "expected a string");
  };
  const simulate = raw.simulate ?? false;
  if (typeof simulate !== "boolean") throw payloadError("base_req.simulate", "expected true or false");
  const fees = coinList(raw.fees, "base_req.fees");
  const gasPrices = coinList(raw.gas_prices, "base_req.gas_prices");
  for (const key of ["account_number", "sequence", "timeout_height"]) {
    const value = text(key, "0");
    integerParam(value, "uint64", () => payloadError(`base_req.${key}`, `'${value}' is not a valid uint64`));
  }
  return {
    from: text("from"),
    memo: text("memo"),
    chainId: text("chain_id"),
    accountNumber: text("account_number", "0"),
    sequence: text("sequence", "0"),
    timeoutHeight: text("timeout_height", "0"),
    fees: fees.map((c) => ({ denom: c.denom, amount: intAmount(c.amount, "base_req.fees") })),
    gasPrices: gasPrices.map((c) => ({ denom: c.denom, scaled: decAmount(c.amount, "base_req.gas_prices") })),
    gas: text("gas"),
    gasAdjustment: text("gas_adjustment"),
    simulate,
    feesValid: coinsValid(
      fees.map((c) => c.denom),
      fees.map((c) => intAmount(c.amount, "base_req.fees")),
    ),
    gasPricesValid: coinsValid(
      gasPrices.map((c) => c.denom),
      gasPrices.map((c) => decAmount(c.amount, "base_req.gas_prices")),
    ),
  };
}

/**
 * BaseReq.ValidateBasic with the real statuses: without simulate, a missing
 * chain_id is 401, fees and gas prices together 400, neither valid 402; then
 * `from` must be an account address of the chain (401).
 */
export function validateBaseReq(req: BaseReq, bech32Prefix: string): void {
  if (!req.simulate) {
    if (req.chainId === "") throw new LegacyError(401, "chain-id required but not specified");
    if (req.fees.some((c) => c.amount !== 0n) && req.gasPrices.some((c) => c.scaled !== 0n))
      throw new LegacyError(400, "cannot provide both fees and gas prices");
    if (!req.feesValid && !req.gasPricesValid) throw new LegacyError(402, "invalid fees or gas prices provided");
  }
  try {
    decodeBech32Address(req.from, bech32Prefix, "from");
  } catch {
    throw new LegacyError(401, `invalid from address: ${req.from}`);
  }
}

/** The gas limit: "" → 200000, "auto" → simulate, else a decimal (400 otherwise). */
export function gasSetting(gas: string): { simulate: boolean; limit: bigint } {
  if (gas === "") return { simulate: false, limit: 200_000n };
  if (gas === "auto") return { simulate: true, limit: 0n };
  const limit = integerParam(gas, "uint64", (reason) => new LegacyError(400, `gas must be either integer or auto: ${strconvText("ParseUint", gas, reason)}`));
  return { simulate: false, limit };
}

/** gas_adjustment as a float, 1.0 when empty (400 when not a number). */
export function gasAdjustment(text: string): number {
  if (text === "") return 1;
  const n = isDecimalFloatText(text, true) ? Number(text) : NaN;
  if (!Number.isFinite(n)) throw new LegacyError(400, `strconv.ParseFloat: parsing ${JSON.stringify(text)}: invalid syntax`);
  if (n < 0) throw new LegacyError(400, "gas adjustment must be a positive float");
  return n;
}

/** Fees of the tx: the given fees, or ceil(gas price × gas) per denom. */
export function feesFor(req: BaseReq, gas: bigint): Coin[] {
  if (req.gasPrices.length === 0) return req.fees;
  const scale = 10n ** 18n;
  return req.gasPrices.map((p) => ({ denom: p.denom, amount: (p.scaled * gas + scale - 1n) / scale }));
}

function coinList(value: unknown, key: string): Array<{ denom: string; amount: string }> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw payloadError(key, "expected an array of coins");
  return value.map((coin, i) => {
    const c = (coin ?? {}) as Record<string, unknown>;
    if (typeof c.denom !== "string" || typeof c.amount !== "string") throw payloadError(`${key}[${i}]`, 'expected {"denom": "...", "amount": "..."}');
    return { denom: c.denom, amount: c.amount };
  });
}

function intAmount(text: string, key: string): bigint {
  if (!/^-?\d+$/.test(text)) throw payloadError(key, `'${text}' is not a valid integer`);
  if (intTextOutOfRange(text)) throw payloadError(key, "integer out of range (more than 256 bits)");
  return BigInt(text);
}

function decAmount(text: string, key: string): bigint {
  try {
    return parseDec(text);
  } catch (err) {
    throw payloadError(key, (err as Error).message);
  }
}

function coinsValid(denoms: string[], amounts: bigint[]): boolean {
  return denoms.every((d, i) => DENOM.test(d) && amounts[i]! > 0n && (i === 0 || denoms[i - 1]! < d));
}

export function payloadError(key: string, detail: string): LegacyError {
  return new LegacyError(400, `failed to decode JSON payload: ${key}: ${detail}`);
}
