import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import { fieldText } from "../codec/fieldText.js";

/** The consensus engine's RPC pages hold at most 100 items (a larger per_page is cut to 100). */
const MAX_PER_PAGE = 100n;

export interface RpcPage {
  page: number;
  perPage: number;
  /** The requested offset, for messages. */
  offset: bigint;
}

/**
 * The RPC page (1-based) that holds pagination.offset, as the SDK's
 * ParsePagination computes it: limit 0 means 100. The limit is cut to the
 * RPC's 100 before dividing, so a larger limit does not skip items (the
 * real SDK divided by the uncut limit). An offset whose page number cannot
 * exist is refused here, without asking the node.
 */
export function rpcPage(pagination: unknown, what: string): RpcPage {
  const { offset: rawOffset, limit: rawLimit } = (pagination ?? {}) as { offset?: unknown; limit?: unknown };
  const offset = BigInt(fieldText(rawOffset, "0"));
  const limit = BigInt(fieldText(rawLimit, "0"));
  const perPage = limit === 0n || limit > MAX_PER_PAGE ? MAX_PER_PAGE : limit;
  const page = offset / perPage + 1n;
  if (page > BigInt(Number.MAX_SAFE_INTEGER)) throw pastTheEnd(offset, what);
  return { page: Number(page), perPage: Number(perPage), offset };
}

export function pastTheEnd(offset: bigint, what: string, detail?: string): GatewayError {
  return new GatewayError(GrpcCode.InvalidArgument, `pagination.offset ${offset} is past the end of the ${what}${detail ? ` (${detail})` : ""}`);
}
