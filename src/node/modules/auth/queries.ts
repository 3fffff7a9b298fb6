import { notFound } from "../../abci/queryError.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { accountAddressParam } from "../shared/addressField.js";
import { ACCOUNT_PREFIX, accountKey } from "./keeper.js";
import type { QueryHandler } from "../nodeModule.js";
import { readParams } from "./keeper.js";
import { accountAddressById } from "../../indexes/indexedQueries.js";

/** The handlers of the auth Query service, by method. */
export const authQueries: Record<string, QueryHandler> = {
  AccountAddressByID: accountAddressById,
  async Accounts(request, ctx) {
    const anyType = ctx.codec.type("google.protobuf.Any");
    const page = await paginate(ctx.store, ACCOUNT_PREFIX, request.pagination as PageRequest, (_key, value) => anyType.decode(value));
    return { accounts: page.items, pagination: page.pagination };
  },
  async Account(request, ctx) {
    const address = accountAddressParam(request.address, "address", ctx);
    const account = await ctx.store.get(accountKey(address));
    if (!account) throw notFound(`account ${String(request.address)} not found`);
    return { account: ctx.codec.type("google.protobuf.Any").decode(account) };
  },
  async Params(_request, ctx) {
    return { params: await readParams(ctx) };
  },
};
