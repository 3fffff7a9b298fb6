import getRawBody from "raw-body";
import type { Context } from "koa";
import { GatewayError, GrpcCode } from "./grpcStatus.js";
import { parseJsonKeepingNumberForms } from "../codec/json/jsonNumberForms.js";

/** Reads a JSON request body: over `limit` bytes → 413, malformed → 400, empty → undefined. */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit, encoding: "utf8", length: ctx.get("content-length") || undefined });
  } catch (err) {
    const error = err as { type?: string; message: string };
    if (error.type === "entity.too.large") {
      throw new GatewayError(GrpcCode.ResourceExhausted, `request body larger than ${limit} bytes (api.rpc-max-body-bytes)`, 413);
    }
    throw new GatewayError(GrpcCode.InvalidArgument, `could not read the request body: ${error.message}`);
  }
  if (text.trim() === "") return undefined;
  try {
    return parseJsonKeepingNumberForms(text);
  } catch (err) {
    throw new GatewayError(GrpcCode.InvalidArgument, `malformed JSON body: ${(err as Error).message}`);
  }
}
