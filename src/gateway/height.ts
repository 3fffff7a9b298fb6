import { GatewayError, GrpcCode } from "./grpcStatus.js";

export const HEIGHT_HEADER = "x-cosmos-block-height";
export const RESPONSE_HEIGHT_HEADER = "Grpc-Metadata-X-Cosmos-Block-Height";

/**
 * The query height of a gateway request (0 = latest). The real server also
 * reads the Grpc-Metadata- prefixed form; a value that is not a non-negative
 * integer is a 400 here (the real v0.41 answered 500).
 */
export function requestedHeight(headers: Record<string, string | string[] | undefined>): number {
  const raw = headers[HEIGHT_HEADER] ?? headers[`grpc-metadata-${HEIGHT_HEADER}`];
  if (raw === undefined) return 0;
  const text = (Array.isArray(raw) ? raw[0]! : raw).trim();
  if (!/^-?\d+$/.test(text)) throw new GatewayError(GrpcCode.InvalidArgument, `invalid ${HEIGHT_HEADER} header "${text}": expected a block height (a non-negative integer)`);
  const height = Number(text);
  if (height < 0) throw new GatewayError(GrpcCode.InvalidArgument, `invalid ${HEIGHT_HEADER} header ${text}: a height cannot be negative`);
  if (!Number.isSafeInteger(height)) throw new GatewayError(GrpcCode.InvalidArgument, `invalid ${HEIGHT_HEADER} header ${text}: out of range`);
  return height;
}
