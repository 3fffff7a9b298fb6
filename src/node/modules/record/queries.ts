import { invalidArgument, notFound } from "../../abci/queryError.js";
import { recordKey } from "./keys.js";
import { decodeHex } from "../shared/hexBytes.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { QueryHandler } from "../nodeModule.js";

/** The handlers of the record Query service, by method. */
export const recordQueries: Record<string, QueryHandler> = {
  async Record(request, ctx) {
    const text = fieldText(request.record_id);
    const id = decodeHex(text);
    if (!id) throw invalidArgument(`invalid record ID ${text}`);
    const bytes = await ctx.store.get(recordKey(id));
    // The real handler answers an empty record here; a 404 makes a wrong id visible.
    if (!bytes) throw notFound(`record ${text} not found`);
    return { record: ctx.codec.type("extmod.record.Record").decode(bytes) };
  },
};
