import { notFound } from "../../abci/queryError.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { METADATA_PREFIX, PARAMS_KEY, balanceKey, balancesPrefix } from "./keys.js";
import { decodeCoin } from "./coinValues.js";
import { findSupply, getTotalSupply } from "./keeper.js";
import { accountAddressParam, denomParam } from "../shared/addressField.js";
import type { QueryHandler } from "../nodeModule.js";
import { denomOwners, topHolders } from "../../indexes/indexedQueries.js";

/** The handlers of the bank Query service, by method. */
export const bankQueries: Record<string, QueryHandler> = {
  DenomOwners: denomOwners,
  TopHolders: topHolders,
  async Balance(request, ctx) {
    const address = accountAddressParam(request.address, "address", ctx);
    // v0.41: a denom the chain has no supply of is held by none (amount 0); only a malformed denom is an error
    const denom = denomParam(request.denom);
    const stored = await ctx.store.get(balanceKey(address, denom));
    return { balance: { denom, amount: stored ? decodeCoin(stored).amount.toString() : "0" } };
  },
  async AllBalances(request, ctx) {
    const address = accountAddressParam(request.address, "address", ctx);
    const page = await paginate(ctx.store, balancesPrefix(address), request.pagination as PageRequest, (_key, value) => {
      const coin = decodeCoin(value);
      return { denom: coin.denom, amount: coin.amount.toString() };
    });
    return { balances: page.items, pagination: page.pagination };
  },
  async TotalSupply(_request, ctx) {
    const supply = (await getTotalSupply(ctx.store)).map((coin) => ({ denom: coin.denom, amount: coin.amount.toString() }));
    return { supply };
  },
  async SupplyOf(request, ctx) {
    const denom = denomParam(request.denom);
    const amount = await findSupply(ctx.store, denom);
    return { amount: { denom, amount: (amount ?? 0n).toString() } };
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
