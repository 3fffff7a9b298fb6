import type { Context, Middleware, Next } from "koa";
import type { EncodedBodies } from "./encodedBodies.js";
import { answeredHeightText, GRPC_HEIGHT_HEADER, HEIGHT_HEADER, requestedHeight } from "./height.js";

/** max-age of an answer pinned to a height: a year, the longest HTTP caches keep anything (RFC 9111 §5.2.2.1 advice). */
export const PINNED_MAX_AGE = 31_536_000;
const VARY = [HEIGHT_HEADER, GRPC_HEIGHT_HEADER];
/** VARY as the `vary` package writes it into an answer that has no Vary yet (the common case: set once, not parsed). */
const VARY_TEXT = VARY.join(", ");

/**
 * HTTP caching of GET answers (200 only: refusals and errors carry no cache
 * headers). An answer at a height the request named (`x-cosmos-block-height`)
 * never changes: `Cache-Control: public, max-age=<a year>, immutable`. Any
 * other is the latest state: `no-cache` (or `public, max-age=N` with
 * api.cache-max-age = N), and its ETag binds the answered height and the body,
 * so `If-None-Match` with it is answered 304 until the height moves or the
 * answer changes. `Vary` names the height headers (Accept-Encoding is named by
 * the compression where it applies). When `rewritable(height)` says the height may get
 * other contents later (a dev chain with a snapshot taken), the answer is not
 * `immutable`: a pinned one is cached as one at the latest height.
 */
export function httpCaching(
  maxAgeSeconds: number,
  bodies: EncodedBodies,
  rewritable: (height: number) => boolean | Promise<boolean> = () => false,
): Middleware {
  const latestControl = maxAgeSeconds > 0 ? `public, max-age=${maxAgeSeconds}` : "no-cache";
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next() as Promise<void>;
    await next();
    const body: unknown = ctx.body;
    if (ctx.status !== 200 || (typeof body !== "string" && !Buffer.isBuffer(body))) return;
    const answered = answeredHeightText(ctx.res);
    if (ctx.res.getHeader("Vary") === undefined) ctx.res.setHeader("Vary", VARY_TEXT);
    else ctx.vary(VARY);
    const pinned = answered !== undefined && answered === pinnedHeight(ctx) && !(await rewritable(Number(answered)));
    ctx.res.setHeader("Cache-Control", pinned ? `public, max-age=${PINNED_MAX_AGE}, immutable` : latestControl);
    const etag = entityTag(answered, body, bodies);
    ctx.res.setHeader("ETag", etag);
    if (matches(ctx.get("If-None-Match"), etag)) ctx.status = 304; // Koa drops the body
  };
}

/** An answer's ETag: weak, binding the answered height (text; undefined: none) and the body. */
export function entityTag(answered: string | undefined, body: string | Buffer, bodies: EncodedBodies): string {
  return `W/"${answered ? `${answered}-` : ""}${bodies.digest(body)}"`;
}

/** The height the request names, as text; undefined for none, 0, or a header the route did not read (a legacy route answers whatever it says). */
function pinnedHeight(ctx: Context): string | undefined {
  try {
    const height = requestedHeight(ctx.headers);
    return height > 0 ? String(height) : undefined;
  } catch {
    return undefined;
  }
}

/** If-None-Match's weak comparison (RFC 9110 §13.1.2): any listed tag, or `*`. */
function matches(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.slice(2);
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === opaque || t === `W/${opaque}`;
  });
}
