import Long from "long";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { DEFAULT_PAGE_LIMIT } from "../node/abci/paginate.js";
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

  /** The limit a limit of 0 stands for: v0.41's 100, or the cap when lower. */
  get defaultLimit(): number {
    return Math.min(DEFAULT_PAGE_LIMIT, this.maxLimit);
  }

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

  /**
   * A gateway request's pagination, checked; a limit of 0 is written as the
   * default limit when the cap is below v0.41's 100 (it still implies count_total).
   */
  checkRequest(request: ProtoMessage): void {
    const pagination = request.pagination as { limit?: unknown; offset?: unknown; count_total?: unknown } | undefined | null;
    if (!pagination) return;
    const limit = Number(pagination.limit ?? 0);
    this.check(limit, Number(pagination.offset ?? 0), { limit: "pagination.limit", offset: "pagination.offset" }, refuseGateway);
    if (limit === 0 && this.maxLimit < DEFAULT_PAGE_LIMIT) {
      pagination.limit = Long.fromNumber(this.maxLimit, true);
      pagination.count_total = true;
    }
  }
}

const refuseGateway = (message: string): Error => new GatewayError(GrpcCode.InvalidArgument, message);
