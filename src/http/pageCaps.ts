import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { GatewayError, GrpcCode } from "./grpcStatus.js";

/**
 * api.max-page-limit and api.max-page-offset: what a client may ask of one
 * page, checked where the request is read (both families, and in front of a
 * remote node, which does its own scan), with a count of refusals per cap.
 */
export class PageCaps {
  readonly refusals = { limit: 0, offset: 0 };

  constructor(
    readonly maxLimit: number,
    readonly maxOffset: number,
  ) {}

  /** Throws the family's 400 (`refuse`) when `limit` or `offset` passes its cap. */
  check(limit: number, offset: number, names: { limit: string; offset: string }, refuse: (message: string) => Error): void {
    if (limit > this.maxLimit) {
      this.refusals.limit++;
      throw refuse(`${names.limit} ${limit} is over api.max-page-limit (${this.maxLimit}); ask smaller pages`);
    }
    if (offset > this.maxOffset) {
      this.refusals.offset++;
      throw refuse(
        `${names.offset} ${offset} is over api.max-page-offset (${this.maxOffset}); read deeper pages by pagination.key (the next_key of the page before)`,
      );
    }
  }

  /** A gateway request's pagination, checked (a limit of 0 is the node's default page: nodePageCaps.ts). */
  checkRequest(request: ProtoMessage): void {
    const pagination = request.pagination as { limit?: unknown; offset?: unknown } | undefined | null;
    if (!pagination) return;
    this.check(Number(pagination.limit ?? 0), Number(pagination.offset ?? 0), { limit: "pagination.limit", offset: "pagination.offset" }, refuseGateway);
  }
}

const refuseGateway = (message: string): Error => new GatewayError(GrpcCode.InvalidArgument, message);
