import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import type { QueryHandler } from "../nodeModule.js";
import { EVIDENCE_PREFIX, evidenceKey } from "./keys.js";

/** The handlers of the evidence Query service, by method. */
export const evidenceQueries: Record<string, QueryHandler> = {
  async Evidence(request, ctx) {
    const hash = (request.evidence_hash as Uint8Array | undefined) ?? new Uint8Array();
    if (hash.length === 0) throw invalidArgument("invalid request; hash is empty");
    const bytes = await ctx.store.get(evidenceKey(hash));
    if (!bytes) throw notFound(`evidence ${Buffer.from(hash).toString("hex").toUpperCase()} not found`);
    return { evidence: ctx.codec.type("google.protobuf.Any").decode(bytes) };
  },
  async AllEvidence(request, ctx) {
    const anyType = ctx.codec.type("google.protobuf.Any");
    const result = await paginate(ctx.store, EVIDENCE_PREFIX, request.pagination as PageRequest, (_key, value) => anyType.decode(value));
    return { evidence: result.items, pagination: result.pagination };
  },
};
