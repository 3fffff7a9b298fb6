import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { notFound } from "../../abci/queryError.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { METADATA_PREFIX, PARAMS_KEY, SUPPLY_PREFIX, balancesPrefix, supplyKey } from "./keys.js";
import { accountAddressParam, denomParam } from "../shared/addressField.js";
import type { QueryContext, QueryHandler } from "../nodeModule.js";

const decoder = new TextDecoder();
const text = (bytes: Uint8Array) => decoder.decode(bytes);

/** The handlers of the bank Query service, by method. */
export const bankQueries: Record<string, QueryHandler> = {
  async Balance(request, ctx) {
    const address = accountAddressParam(request.address, "address", ctx);
    const denom = await existingDenom(request.denom, ctx);
    const amount = await ctx.store.get(concatBytes(balancesPrefix(address), utf8(denom)));
    return { balance: { denom, amount: amount ? text(amount) : "0" } };
  },
  async AllBalances(request, ctx) {
    const address = accountAddressParam(request.address, "address", ctx);
    const page = await paginate(ctx.store, balancesPrefix(address), request.pagination as PageRequest, (key, value) => ({
      denom: text(key),
      amount: text(value),
    }));
    return { balances: page.items, pagination: page.pagination };
  },
  async TotalSupply(_request, ctx) {
    const supply: ProtoMessage[] = [];
    for await (const [key, value] of ctx.store.iterate(SUPPLY_PREFIX)) supply.push({ denom: text(key), amount: text(value) });
    return { supply };
  },
  async SupplyOf(request, ctx) {
    const denom = await existingDenom(request.denom, ctx);
    const amount = await ctx.store.get(supplyKey(denom));
    return { amount: { denom, amount: amount ? text(amount) : "0" } };
  },
  async Params(_request, ctx) {
    const bytes = await ctx.store.get(PARAMS_KEY);
    return { params: bytes ? ctx.codec.type("core.bank.v1beta1.Params").decode(bytes) : {} };
  },
  async DenomMetadata(request, ctx) {
    const denom = denomParam(request.denom);
    const bytes = await ctx.store.get(concatBytes(METADATA_PREFIX, utf8(denom)));
    if (!bytes) throw notFound(`client metadata for denom ${denom}`);
    return { metadata: ctx.codec.type("core.bank.v1beta1.Metadata").decode(bytes) };
  },
  async DenomsMetadata(request, ctx) {
    const metadata = ctx.codec.type("core.bank.v1beta1.Metadata");
    const page = await paginate(ctx.store, METADATA_PREFIX, request.pagination as PageRequest, (_key, value) => metadata.decode(value));
    return { metadatas: page.items, pagination: page.pagination };
  },
};

async function existingDenom(value: unknown, ctx: QueryContext): Promise<string> {
  const denom = denomParam(value);
  if (!(await ctx.store.get(supplyKey(denom)))) throw notFound(`denom ${denom} not found: it has no supply on this chain`);
  return denom;
}
