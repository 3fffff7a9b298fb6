import { invalidArgument, notFound } from "../../abci/queryError.js";
import { big } from "../shared/genesisObjectChecks.js";
import { decodeHex } from "../shared/hexBytes.js";
import { QUEUE_PREFIX, queueHeightPrefix, randomKey } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { QueryHandler } from "../nodeModule.js";

/** The handlers of the random Query service, by method. */
export const randomQueries: Record<string, QueryHandler> = {
  async Random(request, ctx) {
    const text = fieldText(request.req_id);
    const id = decodeHex(text);
    if (!id) throw invalidArgument("invalid request id");
    const bytes = await ctx.store.get(randomKey(id));
    if (!bytes) throw notFound(`random ${text} not found`);
    return { random: ctx.codec.type("extmod.random.Random").decode(bytes) };
  },
  async RandomRequestQueue(request, ctx) {
    const height = big(request.height);
    if (height < 0n) throw invalidArgument("invalid height");
    const requestType = ctx.codec.type("extmod.random.Request");
    const requests: unknown[] = [];
    const prefix = height === 0n ? QUEUE_PREFIX : queueHeightPrefix(height);
    for await (const [, value] of ctx.store.iterate(prefix)) requests.push(requestType.decode(value));
    return { requests };
  },
};
