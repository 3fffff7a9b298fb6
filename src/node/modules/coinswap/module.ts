import { moduleAddress } from "../../../codec/addresses.js";
import { decFromWire, formatDec, parseDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import type { NodeModule } from "../nodeModule.js";
import { DEV_POOL } from "../token/devTokens.js";
import { encodeStringValue } from "../../store/wrapperValues.js";
import { fieldText } from "../../../codec/fieldText.js";
import { liquidityDenomOf, PARAMS_KEY, PARAMS_TYPE, STANDARD_DENOM_KEY } from "./keys.js";
import { readParams } from "./keeper.js";
import { coinswapMessages } from "./messages.js";
import { coinswapQueries } from "./queries.js";
import { decodeStringValue } from "../../store/wrapperValues.js";
import { decodedAt } from "../shared/exportReads.js";

export const coinswapModule: NodeModule = {
  name: "coinswap",
  genesisType: "extmod.coinswap.GenesisState",
  queryService: "extmod.coinswap.Query",
  messages: coinswapMessages,

  queries: coinswapQueries,

  validateGenesis(state) {
    const standardDenom = fieldText(state.standard_denom);
    if (!DENOM_PATTERN.test(standardDenom)) throw new Error(`standard_denom: invalid denom: ${standardDenom}`);
    const fee = decWire(((state.params ?? {}) as ProtoMessage).fee);
    if (fee <= 0n || fee >= parseDec("1")) throw new Error(`params.fee: fee must be positive and less than 1: ${formatDec(fee)}`);
  },

  async exportGenesis(ctx) {
    const standard = await ctx.store.get(STANDARD_DENOM_KEY);
    return { params: await decodedAt(ctx.store, PARAMS_KEY, ctx, PARAMS_TYPE), standard_denom: standard ? decodeStringValue(standard) : "" };
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

function decWire(value: unknown): bigint {
  const text = fieldText(value);
  return text === "" ? 0n : BigInt(text);
}
