import { encodeBech32Address } from "../../../codec/bech32.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVReader } from "../../store/kv.js";
import { decodeStringValue } from "../../store/wrapperValues.js";
import { accountKey } from "../auth/keeper.js";
import { getBalance, getSupply } from "../bank/keeper.js";
import type { ExecContext, ModuleContext } from "../nodeModule.js";
import { DEC_ONE } from "../shared/decMath.js";
import { PARAMS_KEY, PARAMS_TYPE, reservePoolAddressBytes, STANDARD_DENOM_KEY } from "./keys.js";

export async function readParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type(PARAMS_TYPE).decode(bytes) : {};
}

/** The standard denom of the pools (genesis standard_denom). */
export async function standardDenom(store: KVReader): Promise<string> {
  return decodeStringValue((await store.get(STANDARD_DENOM_KEY)) ?? new Uint8Array());
}

/** A pool of the constant-product market: its reserve account, reserves and liquidity. */
export interface Pool {
  liquidityDenom: string;
  address: string;
  exists: boolean;
  reserve(denom: string): Promise<bigint>;
  liquidity: bigint;
}

export async function poolOf(ctx: ExecContext, liquidityDenom: string): Promise<Pool> {
  const bytes = reservePoolAddressBytes(liquidityDenom);
  const bank = ctx.storeOf("bank");
  return {
    liquidityDenom,
    address: encodeBech32Address(ctx.chain.bech32Prefix, bytes),
    // GetReservePool: nil when no account exists at the reserve address
    exists: (await ctx.storeOf("auth").get(accountKey(bytes))) !== undefined,
    reserve: (denom) => getBalance(bank, bytes, denom),
    liquidity: await getSupply(bank, liquidityDenom),
  };
}

/** (1 − fee) as a raw 18-decimal integer, and 10^18. */
export async function feeFactor(ctx: ExecContext): Promise<bigint> {
  const params = await readParams(ctx.storeOf("coinswap"), ctx);
  return DEC_ONE - BigInt(fieldText(params.fee, "0"));
}

/** GetInputPrice: what an exact input `a` buys (truncated divisions, as big.Int.Quo). */
export function inputPrice(a: bigint, reserveIn: bigint, reserveOut: bigint, factor: bigint): bigint {
  const withFee = a * factor;
  return (withFee * reserveOut) / (reserveIn * DEC_ONE + withFee);
}

/** GetOutputPrice: what an exact output `b` costs. */
export function outputPrice(b: bigint, reserveIn: bigint, reserveOut: bigint, factor: bigint): bigint {
  return (reserveIn * b * DEC_ONE) / ((reserveOut - b) * factor) + 1n;
}
