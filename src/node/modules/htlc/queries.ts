import { invalidArgument, notFound } from "../../abci/queryError.js";
import { hexDecode, HTLC_TYPE, htlcKey } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { QueryHandler } from "../nodeModule.js";

/** The handlers of the htlc Query service, by method. */
export const htlcQueries: Record<string, QueryHandler> = {
  async HTLC(request, ctx) {
    const text = fieldText(request.hash_lock);
    const hashLock = hexDecode(text);
    if (!hashLock) throw invalidArgument(`invalid hash lock ${text}`);
    const bytes = await ctx.store.get(htlcKey(hashLock));
    if (!bytes) throw notFound(`HTLC ${text} not found`);
    return { htlc: ctx.codec.type(HTLC_TYPE).decode(bytes) };
  },
};
