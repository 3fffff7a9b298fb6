import { IntegerTextError, parseIntegerText } from "../codec/scalarText.js";
import { GatewayError, GrpcCode } from "./grpcStatus.js";

export const HEIGHT_HEADER = "x-cosmos-block-height";
/** The request's height under the Grpc-Metadata- prefix, which the real server reads too (lower case, as node:http gives it). */
export const GRPC_HEIGHT_HEADER = `grpc-metadata-${HEIGHT_HEADER}`;
export const RESPONSE_HEIGHT_HEADER = "Grpc-Metadata-X-Cosmos-Block-Height";
/** The plain form of the answered height (newer SDK gateways send it beside the Grpc-Metadata- one). */
export const PLAIN_RESPONSE_HEIGHT_HEADER = "X-Cosmos-Block-Height";

/**
 * The height an answer says it was read at (its RESPONSE_HEIGHT_HEADER), undefined when unset.
 * Read from node's response itself: Koa's `ctx.response.get` copies every header first.
 */
export function answeredHeightText(res: { getHeader(name: string): number | string | string[] | undefined }): string | undefined {
  const value = res.getHeader(RESPONSE_HEIGHT_HEADER);
  return value === undefined ? undefined : String(value);
}

/**
 * The query height of a gateway request (0 = latest). The real server also
 * reads the Grpc-Metadata- prefixed form; a value that is not a non-negative
 * integer is a 400 here (the real v0.41 answered 500).
 */
export function requestedHeight(headers: Record<string, string | string[] | undefined>): number {
  const raw = headers[HEIGHT_HEADER] ?? headers[GRPC_HEIGHT_HEADER];
  if (raw === undefined) return 0;
  const text = Array.isArray(raw) ? raw[0]! : raw;
  const bad = (why: string) => new GatewayError(GrpcCode.InvalidArgument, `invalid ${HEIGHT_HEADER} header ${JSON.stringify(text)}: ${why}`);
  let height: bigint;
  try {
    height = parseIntegerText(text, "int64");
  } catch (err) {
    if (err instanceof IntegerTextError && err.reason === "range") throw bad("out of range");
    throw bad("expected a block height (a non-negative integer)");
  }
  if (height < 0n) throw bad("a height cannot be negative");
  if (height > BigInt(Number.MAX_SAFE_INTEGER)) throw bad("out of range");
  return Number(height);
}
