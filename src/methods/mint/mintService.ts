import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { fieldText } from "../../codec/fieldText.js";
import type { ServiceContext, ServiceMethod } from "../serviceMethod.js";
import { askModule, readStoreKey } from "../moduleQuery.js";

/** The hub's minter: the mint store's key 0x02 (hubmod.mint.Minter). */
const MINTER_KEY = Uint8Array.of(0x02);
/** 5-second blocks over 365.25 days: the year the hub's minter divides its provisions by. */
const BLOCKS_PER_YEAR = (60 * 60 * 8766) / 5;

const utf8 = (text: string) => new TextEncoder().encode(text);

async function hubParams(context: ServiceContext): Promise<{ params: ProtoMessage; height: number }> {
  const { response, height } = await askModule(context, "/hubmod.mint.Query/Params", ["hubmod.mint.QueryParamsRequest", "hubmod.mint.QueryParamsResponse"]);
  return { params: (response.params ?? {}) as ProtoMessage, height };
}

/**
 * core.mint.v1beta1.Query (the SDK's mint) derived from the chain's own mint,
 * hubmod.mint, which explorers do not know: a fixed inflation rate on a fixed
 * base. Everything is read from v0.41 queries (the hub's Params and the
 * minter's store key), so `gateway --node` in front of a real hub derives the same.
 */
export const mintService: Record<string, ServiceMethod> = {
  "/core.mint.v1beta1.Query/Inflation": async (_request, context) => {
    const { params, height } = await hubParams(context);
    return { response: { inflation: utf8(fieldText(params.inflation, "0")) }, height };
  },

  "/core.mint.v1beta1.Query/Params": async (_request, context) => {
    const { params, height } = await hubParams(context);
    // the hub's rate neither moves nor aims at a bonded ratio: max = min = the rate, no change, no goal
    const inflation = fieldText(params.inflation, "0");
    return {
      response: {
        params: {
          mint_denom: fieldText(params.mint_denom),
          inflation_rate_change: "0",
          inflation_max: inflation,
          inflation_min: inflation,
          goal_bonded: "0",
          blocks_per_year: BLOCKS_PER_YEAR,
        },
      },
      height,
    };
  },

  "/core.mint.v1beta1.Query/AnnualProvisions": async (_request, context) => {
    const { params, height } = await hubParams(context);
    // what the hub mints in a year: its rate times the minter's inflation base (not the current supply)
    const minter = await readStoreKey({ ...context, height }, "mint", MINTER_KEY);
    const base = minter.value ? fieldText((context.codec.type("hubmod.mint.Minter").decode(minter.value) as unknown as ProtoMessage).inflation_base, "0") : "0";
    const provisions = BigInt(fieldText(params.inflation, "0")) * BigInt(base || "0");
    return { response: { annual_provisions: utf8(provisions.toString()) }, height };
  },
};
