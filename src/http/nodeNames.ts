import type { Context, Next } from "koa";
import type { ChainClient } from "../client/chainClient.js";
import { allNames, names } from "../names/activeNames.js";
import { GrpcCode } from "./grpcStatus.js";
import { JSON_CONTENT_TYPE } from "./jsonContentType.js";

/** A query every node answers, written with the neutral names; each profile asks it in its own words. */
const PROBE = "/core.auth.v1beta1.Query/Params";

/**
 * Which naming profile a node speaks, from one ABCI query per profile (the
 * one the node has a handler for); undefined when the node cannot be reached
 * or answers none of them.
 */
export async function detectNodeNames(client: ChainClient): Promise<string | undefined> {
  try {
    for (const map of allNames()) if ((await client.abciQuery(map.profilePath(PROBE), new Uint8Array())).code === 0) return map.profile;
  } catch {
    // unreachable at start: nothing is known, nothing is refused
  }
  return undefined;
}

/**
 * A gateway whose naming profile is not the node's answers every request 502
 * with the names the node speaks, rather than 501s or decode failures.
 */
export function nodeNamesGuard(nodeNames: string | undefined) {
  return (ctx: Context, next: Next): Promise<void> => {
    const own = names().profile;
    if (nodeNames === undefined || nodeNames === own) return next() as Promise<void>;
    ctx.status = 502;
    ctx.set("Content-Type", JSON_CONTENT_TYPE);
    const message = `the node speaks the "${nodeNames}" names (names = "${nodeNames}"), this gateway the "${own}" names: start the gateway with --names ${nodeNames}`;
    ctx.body = JSON.stringify({ code: GrpcCode.Unavailable, message, details: [] }, null, 2);
    return Promise.resolve();
  };
}
