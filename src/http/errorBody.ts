import type { Context, Next } from "koa";
import { NodeRpcError, NodeUnavailableError } from "../client/chainClient.js";
import { UnknownTypeUrlError } from "../codec/typeRegistry.js";
import { GatewayError, GrpcCode } from "./grpcStatus.js";
import { JSON_CONTENT_TYPE } from "./jsonContentType.js";
import { processLogger } from "../telemetry/processLogger.js";

/** Any failure → the gateway family's error body, with the status of its gRPC code; never a stack trace. */
export async function gatewayErrors(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    const error = asGatewayError(err);
    if (error.code === GrpcCode.Unknown || error.httpStatus >= 500) logUnexpected(ctx, err);
    ctx.status = error.httpStatus;
    ctx.set("Content-Type", JSON_CONTENT_TYPE);
    ctx.body = JSON.stringify({ code: error.code, message: error.message, details: error.details }, null, 2);
  }
}

export function asGatewayError(err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  if (err instanceof NodeUnavailableError) return new GatewayError(GrpcCode.Unavailable, err.message);
  if (err instanceof NodeRpcError) return new GatewayError(GrpcCode.Unknown, err.message);
  if (err instanceof UnknownTypeUrlError) return new GatewayError(GrpcCode.Unknown, `cannot render the response: ${err.message}`);
  return new GatewayError(GrpcCode.Internal, `internal error: ${(err as Error)?.message ?? String(err)}`);
}

function logUnexpected(ctx: Context, err: unknown): void {
  if (err instanceof GatewayError || err instanceof NodeUnavailableError) return;
  processLogger().error({ err }, `[gateway] ${ctx.method} ${ctx.url}`);
}

/** No route matched: the real gateway answers every unknown path or verb 501 / Unimplemented. */
export function notImplemented(ctx: Context): void {
  ctx.status = 501;
  ctx.set("Content-Type", JSON_CONTENT_TYPE);
  ctx.body = JSON.stringify({ code: GrpcCode.Unimplemented, message: "Not Implemented", details: [] }, null, 2);
}
