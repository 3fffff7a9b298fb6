import type { Context, Middleware, Next } from "koa";
import { ENCODINGS, type EncodedBodies, type Encoding } from "./encodedBodies.js";

/** Answers smaller than this go as they are: the coding's headers and CPU would outweigh the bytes saved. */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * Compression of successful answers by the request's Accept-Encoding (brotli
 * or gzip, brotli when both are as welcome; none for `identity` or no header)
 * when the body is at least COMPRESS_FROM_BYTES. A body asked again (an
 * answer from the answer cache, the OpenAPI document) is compressed once
 * (EncodedBodies). `Vary: Accept-Encoding` on every answer that could be compressed.
 */
export function compression(bodies: EncodedBodies): Middleware {
  return async (ctx: Context, next: Next) => {
    await next();
    const body: unknown = ctx.body;
    if (ctx.method === "HEAD" || ctx.status < 200 || ctx.status >= 300 || (typeof body !== "string" && !Buffer.isBuffer(body))) return;
    // a string's length in characters: never more than its UTF-8 bytes
    if (body.length < COMPRESS_FROM_BYTES || ctx.res.getHeader("Content-Encoding") !== undefined) return;
    ctx.vary("Accept-Encoding");
    const encoding = chosenEncoding(ctx.get("Accept-Encoding"));
    if (!encoding) return;
    const type = ctx.res.getHeader("Content-Type");
    ctx.body = await bodies.encode(body, encoding);
    ctx.set("Content-Encoding", encoding);
    if (type !== undefined) ctx.set("Content-Type", String(type));
  };
}

/**
 * The coding to answer in: the one of ENCODINGS with the highest q (RFC 9110 §12.5.3; `*`
 * stands for those not named), the first of ENCODINGS on a tie (the client's order does not
 * choose: browsers list gzip before br); none when no coding has a q above 0.
 */
function chosenEncoding(acceptEncoding: string): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const q = new Map<string, number>();
  for (const item of acceptEncoding.split(",")) {
    const [name, ...params] = item.split(";");
    const weight = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(name!.trim().toLowerCase(), Number.isFinite(value) ? value : 0);
  }
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const encoding of ENCODINGS) {
    const weight = q.get(encoding) ?? q.get("*") ?? 0;
    if (weight > bestQ) [best, bestQ] = [encoding, weight];
  }
  return best;
}
