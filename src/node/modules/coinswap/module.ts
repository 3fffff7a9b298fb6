import { moduleAddress, moduleAddressBytes } from "../../../codec/addresses.js";
import { decFromWire, formatDec, parseDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { notFound } from "../../abci/queryError.js";
import type { KVReader } from "../../store/kv.js";
import { utf8 } from "../../store/moduleStore.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import { accountKey } from "../auth/keeper.js";
import { supplyKey } from "../bank/keys.js";
import { getBalance } from "../bank/keeper.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import type { ModuleContext, NodeModule, QueryContext } from "../nodeModule.js";
import { DEV_POOL } from "../token/devTokens.js";
import { decodeStringValue, encodeStringValue } from "../../store/wrapperValues.js";
import { fieldText } from "../../../codec/fieldText.js";

/**
 * Store layout:
 *   "standardDenom" → StringValue(standard denom)   (the real keeper's key)
 *   0x01            → Params (the real v1.3.1 kept them in the x/params subspace "coinswap")
 * A pool has no state here: its reserves are the bank balances of the reserve
 * account derived from the liquidity denom "swap/<denom>", and its liquidity is
 * the bank supply of that denom.
 */
const STANDARD_DENOM_KEY = utf8("standardDenom");
const PARAMS_KEY = Uint8Array.of(0x01);
const PARAMS_TYPE = "extmod.coinswap.Params";

/** The prefix of liquidity (pool) denoms. */
export const LIQUIDITY_DENOM_PREFIX = "swap/";

export const liquidityDenomOf = (tokenDenom: string) => `${LIQUIDITY_DENOM_PREFIX}${tokenDenom}`;

/** GetReservePoolAddr: the first 20 bytes of SHA-256 of the liquidity denom (tendermint crypto.AddressHash). */
export const reservePoolAddressBytes = (liquidityDenom: string) => moduleAddressBytes(liquidityDenom);

export const coinswapModule: NodeModule = {
  name: "coinswap",
  genesisType: "extmod.coinswap.GenesisState",
  queryService: "extmod.coinswap.Query",

  queries: {
    async Liquidity(request, ctx) {
      const tokenDenom = fieldText(request.denom);
      const liquidityDenom = liquidityDenomOf(tokenDenom);
      const reserve = reservePoolAddressBytes(liquidityDenom);
      const bank = ctx.storeOf("bank");
      if (!(await reservePoolExists(ctx, reserve))) throw notFound(`${liquidityDenom}: reserve pool not exists`);
      const standardDenom = decodeStringValue((await ctx.store.get(STANDARD_DENOM_KEY)) ?? new Uint8Array());
      const liquidity = await bank.get(supplyKey(liquidityDenom));
      const params = await readParams(ctx.store, ctx);
      return {
        standard: { denom: standardDenom, amount: (await getBalance(bank, reserve, standardDenom)).toString() },
        token: { denom: tokenDenom, amount: (await getBalance(bank, reserve, tokenDenom)).toString() },
        liquidity: { denom: liquidityDenom, amount: liquidity ? new TextDecoder().decode(liquidity) : "0" },
        fee: decFromWire(fieldText(params.fee)),
      };
    },
  },

  validateGenesis(state) {
    const standardDenom = fieldText(state.standard_denom);
    if (!DENOM_PATTERN.test(standardDenom)) throw new Error(`standard_denom: invalid denom: ${standardDenom}`);
    const fee = decWire(((state.params ?? {}) as ProtoMessage).fee);
    if (fee <= 0n || fee >= parseDec("1")) throw new Error(`params.fee: fee must be positive and less than 1: ${formatDec(fee)}`);
  },

  async initGenesis(state, ctx) {
    ctx.store.set(
      PARAMS_KEY,
      ctx.codec
        .type(PARAMS_TYPE)
        .encode(state.params ?? {})
        .finish(),
    );
    ctx.store.set(STANDARD_DENOM_KEY, encodeStringValue(fieldText(state.standard_denom)));
  },

  params: {
    subspace: "coinswap",
    async read(store, ctx) {
      const params = await readParams(store, ctx);
      return { Fee: JSON.stringify(decFromWire(fieldText(params.fee))) };
    },
  },

  devGenesis(ctx: DevGenesisContext) {
    ctx.moduleAccount("coinswap", ["minter", "burner"]);
    // One pool, as if the token's owner had added liquidity: the reserves sit in
    // the pool's reserve account, the minted liquidity with the provider.
    const liquidityDenom = liquidityDenomOf(DEV_POOL.token.min_unit);
    const reserve = moduleAddress(ctx.prefix, liquidityDenom);
    ctx.account(reserve); // adding liquidity creates the reserve's account, as the real keeper's first send does
    ctx.fund(reserve, [
      { denom: ctx.denom, amount: DEV_POOL.standardReserve.toString() },
      { denom: DEV_POOL.token.min_unit, amount: DEV_POOL.token.pooled.toString() },
    ]);
    ctx.fund(ctx.accounts[DEV_POOL.provider]!.address, [{ denom: liquidityDenom, amount: DEV_POOL.liquidity.toString() }]);
    return { params: { fee: formatDec(parseDec("0.003")) }, standard_denom: ctx.denom };
  },
};

/** The real keeper answers "reserve pool not exists" when the reserve account is unknown to auth. */
async function reservePoolExists(ctx: QueryContext, reserve: Uint8Array): Promise<boolean> {
  return (await ctx.storeOf("auth").get(accountKey(reserve))) !== undefined;
}

async function readParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type(PARAMS_TYPE).decode(bytes) : {};
}

function decWire(value: unknown): bigint {
  const text = fieldText(value);
  return text === "" ? 0n : BigInt(text);
}
