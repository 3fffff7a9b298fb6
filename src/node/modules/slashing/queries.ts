import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import { consensusAddressParam } from "../shared/addressField.js";
import { SIGNING_INFO_PREFIX, SIGNING_INFO_TYPE, signingInfoKey } from "./keys.js";
import type { QueryHandler } from "../nodeModule.js";
import { readParams } from "./params.js";
import { fieldText } from "../../../codec/fieldText.js";

/** The handlers of the slashing Query service, by method. */
export const slashingQueries: Record<string, QueryHandler> = {
  async Params(_request, ctx) {
    return { params: await readParams(ctx.store, ctx) };
  },
  async SigningInfo(request, ctx) {
    if (fieldText(request.cons_address) === "") throw invalidArgument("invalid request");
    const bytes = await ctx.store.get(signingInfoKey(consensusAddressParam(request.cons_address, "cons_address", ctx)));
    if (!bytes) throw notFound(`SigningInfo not found for validator ${String(request.cons_address)}`);
    return { val_signing_info: ctx.codec.type(SIGNING_INFO_TYPE).decode(bytes) };
  },
  async SigningInfos(request, ctx) {
    const type = ctx.codec.type(SIGNING_INFO_TYPE);
    const result = await paginate(ctx.store, SIGNING_INFO_PREFIX, request.pagination as PageRequest, (_key, value) => type.decode(value));
    return { info: result.items, pagination: result.pagination };
  },
};
