import type { Context, Middleware, Next } from "koa";
import { GatewayError, GrpcCode } from "./grpcStatus.js";
import { JSON_CONTENT_TYPE } from "./jsonContentType.js";

/** What a readiness check found: ready, or why not; the node's latest block when it answered. */
interface Readiness {
  ready: boolean;
  reason?: string;
  height?: number;
  /** The latest block's time, milliseconds since the epoch. */
  blockTime?: number;
  /** A gateway in front of several nodes: each node's state, listed in the answer. */
  upstreams?: Array<Record<string, unknown>>;
}

/** Asks the node (and, behind a gateway, its NewBlock subscription) whether queries can be answered now. */
export type ReadinessCheck = () => Promise<Readiness>;

/** ?max_block_age= is whole seconds, up to about 31 years: a longer text is refused before it is read as a number. */
const MAX_BLOCK_AGE = /^[0-9]{1,9}$/;

/**
 * The balancer's probes, outside the route tables: GET /healthz answers 200
 * while the process answers; GET /readyz answers 200 when the node answers
 * (and, in `gateway --node`, its NewBlock subscription is up) and 503
 * `{"code": 14, ...}` otherwise. `?max_block_age=SECONDS` also requires the
 * latest block to be at most that old (for chains where blocks are expected).
 */
export function healthRoutes(check: ReadinessCheck, now: () => number = Date.now): Middleware {
  // every request passes here: the others go on without an await of their own (a pass-through async function costs a promise and ticks)
  return (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== "GET" || (ctx.path !== "/healthz" && ctx.path !== "/readyz")) return next() as Promise<void>;
    return answerProbe(ctx, check, now);
  };
}

/** Answers GET /healthz (the process answers) or /readyz (queries can be answered now). */
async function answerProbe(ctx: Context, check: ReadinessCheck, now: () => number): Promise<void> {
  ctx.set("Content-Type", JSON_CONTENT_TYPE);
  ctx.set("Cache-Control", "no-store");
  if (ctx.path === "/healthz") {
    ctx.body = JSON.stringify({ status: "SERVING" });
    return;
  }
  const maxAge = maxBlockAge(ctx);
  const readiness = await check();
  let reason = readiness.ready ? undefined : (readiness.reason ?? "the node is not ready");
  if (!reason && maxAge !== undefined) {
    const age = readiness.blockTime === undefined ? Infinity : (now() - readiness.blockTime) / 1000;
    if (age > maxAge)
      reason = `the latest block (height ${readiness.height ?? "unknown"}) is ${Number.isFinite(age) ? age.toFixed(1) : "of unknown age"} s old, more than max_block_age ${maxAge} s`;
  }
  if (reason && readiness.upstreams) {
    ctx.status = 503;
    ctx.body = JSON.stringify({ code: GrpcCode.Unavailable, message: reason, details: [], upstreams: readiness.upstreams });
    return;
  }
  if (reason) throw new GatewayError(GrpcCode.Unavailable, reason); // 503 in the gateway's error body
  ctx.body = JSON.stringify({
    status: "SERVING",
    height: readiness.height === undefined ? undefined : String(readiness.height),
    latest_block_time: readiness.blockTime === undefined ? undefined : new Date(readiness.blockTime).toISOString(),
    upstreams: readiness.upstreams,
  });
}

function maxBlockAge(ctx: Context): number | undefined {
  const text = new URLSearchParams(ctx.querystring).get("max_block_age");
  if (text === null) return undefined;
  if (!MAX_BLOCK_AGE.test(text)) throw new GatewayError(GrpcCode.InvalidArgument, "max_block_age must be a whole number of seconds (at most 9 digits)");
  return Number(text);
}
