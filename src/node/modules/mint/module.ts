import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { toNumber } from "../../../codec/wellKnownTime.js";
import { DEC_PRECISION } from "../../../codec/decimal.js";
import type { KVReader } from "../../store/kv.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ModuleContext, NodeModule } from "../nodeModule.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { aminoDec, aminoString } from "../shared/aminoParams.js";
import { MINTER_KEY, MINT_ACCOUNT, MINT_PARAMS_KEY, mintBeginBlock } from "./blocks.js";
import { updateMintParam } from "./params.js";
import { fieldText } from "../../../codec/fieldText.js";
import { decodedAt } from "../shared/exportReads.js";

/** Store layout (the hub's mint keys): 0x02 → Minter; Params: MODULE_PARAMS_KEY (irishub v1.0: the params store). */
const PARAMS_KEY = MINT_PARAMS_KEY;

const MAX_INFLATION = 2n * 10n ** BigInt(DEC_PRECISION - 1); // 0.2

export const mintModule: NodeModule = {
  name: "mint",
  genesisType: "hubmod.mint.GenesisState",
  queryService: "hubmod.mint.Query",

  queries: {
    async Params(_request, ctx) {
      // `res` is declared by the proto but never filled by the hub.
      return { params: await readParams(ctx.store, ctx) };
    },
  },

  validateGenesis(state) {
    const minter = (state.minter ?? {}) as ProtoMessage;
    const lastUpdate = (minter.last_update ?? {}) as ProtoMessage;
    if (toNumber(lastUpdate.seconds as number) < 0) {
      throw new Error("minter.last_update: the minter's last update time should not be a time before January 1, 1970 UTC");
    }
    const base = fieldText(minter.inflation_base);
    if (!/^\d+$/.test(base) || BigInt(base) === 0n) throw new Error(`minter.inflation_base: the inflation base should be positive, got "${base}"`);
    const params = (state.params ?? {}) as ProtoMessage;
    const inflation = BigInt(fieldText(params.inflation, "0"));
    if (inflation < 0n || inflation > MAX_INFLATION) throw new Error("params.inflation: mint inflation should be between 0 and 0.2");
    const denom = fieldText(params.mint_denom);
    if (!DENOM_PATTERN.test(denom)) throw new Error(`params.mint_denom: invalid denom "${denom}"`);
  },

  async exportGenesis(ctx) {
    return {
      minter: await decodedAt(ctx.store, MINTER_KEY, ctx, "hubmod.mint.Minter"),
      params: await decodedAt(ctx.store, PARAMS_KEY, ctx, "hubmod.mint.Params"),
    };
  },

  async initGenesis(state, ctx) {
    ctx.store.set(
      PARAMS_KEY,
      ctx.codec
        .type("hubmod.mint.Params")
        .encode(state.params ?? {})
        .finish(),
    );
    ctx.store.set(
      MINTER_KEY,
      ctx.codec
        .type("hubmod.mint.Minter")
        .encode(state.minter ?? {})
        .finish(),
    );
  },

  beginBlock: mintBeginBlock,

  params: {
    subspace: "mint",
    async read(store, ctx) {
      const params = await readParams(store, ctx);
      return { Inflation: aminoDec(params.inflation), MintDenom: aminoString(params.mint_denom) };
    },
    update: updateMintParam,
  },

  devGenesis(ctx: DevGenesisContext) {
    // the module account the inflation is minted into (the real chain creates it at the first mint)
    ctx.moduleAccount(MINT_ACCOUNT, ["minter"]);
    return {
      minter: {
        last_update: ctx.genesisTime.toISOString(),
        // the hub's default: 2×10^9 main units of a 10^6 base denom
        inflation_base: "2000000000000000",
      },
      params: { mint_denom: ctx.denom, inflation: "0.040000000000000000" },
    };
  },
};

async function readParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type("hubmod.mint.Params").decode(bytes) : {};
}
