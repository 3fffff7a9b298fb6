import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { concatBytes } from "../../store/keyEncoding.js";
import type { KVReader, KVStore } from "../../store/kv.js";
import { utf8 } from "../../store/moduleStore.js";
import type { ModuleContext } from "../nodeModule.js";
import { decodeStringValue, encodeStringValue } from "../../store/wrapperValues.js";
import { fieldText } from "../../../codec/fieldText.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

/**
 * Store layout (the real keeper's keys):
 *   0x01 | symbol                 → Token
 *   0x02 | min_unit               → StringValue(symbol)
 *   0x03 | owner address | symbol → StringValue(symbol)   (owner index; 20 address bytes, no length prefix, as SDK v0.41)
 *   0x04 | min_unit               → Coin (total burned of that coin)
 *   Params: MODULE_PARAMS_KEY (the real v1.3.1 kept them in the x/params subspace "token")
 */
export const SYMBOL_PREFIX = Uint8Array.of(0x01);
const MIN_UNIT_PREFIX = Uint8Array.of(0x02);
const OWNER_PREFIX = Uint8Array.of(0x03);
export const BURNED_PREFIX = Uint8Array.of(0x04);
const PARAMS_KEY = MODULE_PARAMS_KEY;

export const TOKEN_TYPE = "extmod.token.Token";
const PARAMS_TYPE = "extmod.token.Params";

const symbolKey = (symbol: string) => concatBytes(SYMBOL_PREFIX, utf8(symbol));
const minUnitKey = (minUnit: string) => concatBytes(MIN_UNIT_PREFIX, utf8(minUnit));
export const ownerPrefix = (owner: Uint8Array) => concatBytes(OWNER_PREFIX, owner);
const burnedKey = (minUnit: string) => concatBytes(BURNED_PREFIX, utf8(minUnit));

/** The stored bytes of a token by symbol. */
export function tokenBytesBySymbol(store: KVReader, symbol: string): Promise<Uint8Array | undefined> {
  return store.get(symbolKey(symbol));
}

/** GetToken: a denom is looked up as a symbol first, then as a min unit. */
export async function tokenBytes(store: KVReader, denom: string): Promise<Uint8Array | undefined> {
  const bySymbol = await store.get(symbolKey(denom));
  if (bySymbol) return bySymbol;
  const symbol = await store.get(minUnitKey(denom));
  return symbol ? store.get(symbolKey(decodeStringValue(symbol))) : undefined;
}

/** HasToken: the denom is a symbol or a min unit. */
export async function hasToken(store: KVReader, denom: string): Promise<boolean> {
  return (await store.get(symbolKey(denom))) !== undefined || (await store.get(minUnitKey(denom))) !== undefined;
}

export async function readParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type(PARAMS_TYPE).decode(bytes) : {};
}

export function writeParams(store: KVStore, params: ProtoMessage, ctx: ModuleContext): void {
  store.set(PARAMS_KEY, ctx.codec.type(PARAMS_TYPE).encode(params).finish());
}

/** AddToken after validation: the token and its min-unit and owner indexes. */
export function writeToken(store: KVStore, token: ProtoMessage, owner: Uint8Array | undefined, ctx: ModuleContext): void {
  const symbol = String(token.symbol);
  store.set(symbolKey(symbol), ctx.codec.type(TOKEN_TYPE).encode(token).finish());
  store.set(minUnitKey(String(token.min_unit)), encodeStringValue(symbol));
  if (owner) store.set(concatBytes(ownerPrefix(owner), utf8(symbol)), encodeStringValue(symbol));
}

/** AddBurnCoin: adds to the burned total of the coin's denom. */
export async function addBurnedCoin(store: KVStore, coin: { denom: string; amount: bigint }, ctx: ModuleContext): Promise<void> {
  const coinType = ctx.codec.type("core.base.v1beta1.Coin");
  const existing = await store.get(burnedKey(coin.denom));
  const before = existing ? BigInt(fieldText((coinType.decode(existing) as unknown as ProtoMessage).amount, "0")) : 0n;
  store.set(burnedKey(coin.denom), coinType.encode({ denom: coin.denom, amount: (before + coin.amount).toString() }).finish());
}
