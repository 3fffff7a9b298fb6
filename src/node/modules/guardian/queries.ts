import { paginate, type PageRequest } from "../../abci/paginate.js";
import type { QueryHandler } from "../nodeModule.js";

/** The handlers of the guardian Query service, by method. */
export const guardianQueries: Record<string, QueryHandler> = {
  async Supers(request, ctx) {
    const superType = ctx.codec.type("hubmod.guardian.Super");
    const page = await paginate(ctx.store, new Uint8Array(), request.pagination as PageRequest, (_key, value) => superType.decode(value));
    return { supers: page.items, pagination: page.pagination };
  },
};
