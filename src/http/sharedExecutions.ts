import type { Context, Next } from "koa";
import type { ChainClient } from "../client/chainClient.js";
import { GRPC_HEIGHT_HEADER, HEIGHT_HEADER } from "./height.js";
import { headersSetBy, requestKey } from "./answerCache.js";

/** A multi-node gateway's request: the height its connection was already answered at (upstreamScope.ts). */
export interface HeightFloorState {
  heightFloor?: number;
}

/** What an execution ended with, handed to every request that waited on it. */
type Outcome =
  | { kind: "answer"; status: number; headers: Record<string, string>; route: unknown; body: string | Buffer }
  | { kind: "error"; error: unknown }
  /** A body that cannot be handed on (a stream): each waiting request runs its own. */
  | { kind: "unshared" };

/**
 * One execution per identical question: a GET asked while the same one (path,
 * query, requested height; at the latest height, no block between) is being
 * answered waits for that execution and answers its status, headers and bytes;
 * an error is handed on the same way. Nothing is kept once the execution ends,
 * so an answer or an error never outlives its height: reuse past the end is
 * the answer cache's, which keeps 200s only. Each request still passes the
 * meter, the log and the rate limit, which sit outside. The table of
 * executions holds one entry per request being answered, so it is bounded by
 * api.max-open-connections. At the latest height a request shares only while
 * the client can tell that the height has not moved (its height notices);
 * when it cannot, only requests that name their height share.
 */
export class SharedExecutions {
  private readonly running = new Map<string, Promise<Outcome>>();
  /** Bumped at every height notice: a question at the latest height asked after it is another question. */
  private generation = 0;
  /** Whether the client follows the height at all (undefined latest: it cannot tell now). */
  private heightKnown = false;
  private readonly unwatch: () => void;

  /** GET requests answered by another's execution. */
  readonly counts = { shared: 0 };

  constructor(client: ChainClient) {
    this.unwatch =
      client.watchHeights?.((latest) => {
        this.heightKnown = latest !== undefined;
        this.generation++;
      }) ?? (() => undefined);
  }

  stop(): void {
    this.unwatch();
  }

  readonly middleware = async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== "GET") return next() as Promise<void>;
    const pinned = namesHeight(ctx);
    if (!pinned && !this.heightKnown) return next() as Promise<void>;
    // behind several nodes a latest-height answer must not be below the height the connection already saw:
    // only requests of the same floor (upstreamScope.ts) share an execution
    const question = requestKey(ctx.url, ctx.req.headers);
    const key = pinned ? question : `${this.generation}\n${(ctx.state as HeightFloorState).heightFloor ?? ""}\n${question}`;
    const running = this.running.get(key);
    if (running) return this.answerFrom(ctx, next, await running);
    let settle!: (outcome: Outcome) => void;
    this.running.set(key, new Promise((resolve) => (settle = resolve)));
    const before = ctx.res.getHeaders(); // a copy: what the outer layers set
    try {
      await next();
      const body: unknown = ctx.body;
      settle(
        typeof body === "string" || Buffer.isBuffer(body)
          ? { kind: "answer", status: ctx.status, headers: headersSetBy(ctx, before), route: (ctx as { _matchedRoute?: unknown })._matchedRoute, body }
          : { kind: "unshared" },
      );
    } catch (error) {
      settle({ kind: "error", error });
      throw error;
    } finally {
      this.running.delete(key);
    }
  };

  private answerFrom(ctx: Context, next: Next, outcome: Outcome): Promise<void> {
    if (outcome.kind === "unshared") return next() as Promise<void>;
    this.counts.shared++;
    (ctx.state as { shared?: boolean }).shared = true;
    if (outcome.kind === "error") throw outcome.error;
    (ctx as { _matchedRoute?: unknown })._matchedRoute = outcome.route;
    ctx.set(outcome.headers);
    ctx.body = outcome.body;
    ctx.status = outcome.status;
    return Promise.resolve();
  }
}

/** Whether the request names the height it reads (the header, either spelling; not 0, which is the latest). */
function namesHeight(ctx: Context): boolean {
  const headers = ctx.req.headers;
  const height = headers[HEIGHT_HEADER] ?? headers[GRPC_HEIGHT_HEADER];
  return height !== undefined && height !== "" && height !== "0";
}
