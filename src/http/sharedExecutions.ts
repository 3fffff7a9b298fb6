import type { Context, Next } from "koa";
import type { ChainClient } from "../client/chainClient.js";
import { GRPC_HEIGHT_HEADER, HEIGHT_HEADER } from "./height.js";
import { headersSetBy, requestKey, setHeaders } from "./answerCache.js";

/** A multi-node gateway's request: the height its connection was already answered at (upstreamScope.ts). */
export interface HeightFloorState {
  heightFloor?: number;
}

/** Ends an execution begun outside the Koa layers: its outcome is made only when a request waits for it. */
export type EndExecution = (outcome: () => Outcome) => void;

/** What an execution ended with, handed to every request that waited on it. */
type Outcome =
  | { kind: "answer"; status: number; headers: Record<string, string>; route: unknown; body: string | Buffer }
  | { kind: "error"; error: unknown }
  /** A body that cannot be handed on (a stream): each waiting request runs its own. */
  | { kind: "unshared" };

/** A GET being answered; `waiting` is made by the first request that waits for its outcome. */
interface Execution {
  waiting: Waiting | undefined;
}

interface Waiting {
  outcome: Promise<Outcome>;
  settle(outcome: Outcome): void;
}

const NOTHING_SHARED: EndExecution = () => undefined;

function waitingFor(): Waiting {
  let settle!: (outcome: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  return { outcome, settle };
}

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
  private readonly running = new Map<string, Execution>();
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
    const key = pinned ? question : this.latestKey(question, (ctx.state as HeightFloorState).heightFloor);
    const running = this.running.get(key);
    if (running) return this.answerFrom(ctx, next, await (running.waiting ??= waitingFor()).outcome);
    const execution: Execution = { waiting: undefined };
    this.running.set(key, execution);
    const before = ctx.res.getHeaders(); // a copy: what the outer layers set
    try {
      await next();
      // the outcome is made only when a request waits for it (most GETs are asked once)
      const body: unknown = ctx.body;
      execution.waiting?.settle(
        typeof body === "string" || Buffer.isBuffer(body)
          ? { kind: "answer", status: ctx.status, headers: headersSetBy(ctx, before), route: (ctx as { _matchedRoute?: unknown })._matchedRoute, body }
          : { kind: "unshared" },
      );
    } catch (error) {
      execution.waiting?.settle({ kind: "error", error });
      throw error;
    } finally {
      this.running.delete(key);
    }
  };

  /**
   * An execution of a latest-height GET of `url` (no height header; `floor`: its connection's behind
   * several nodes) that runs outside the Koa layers
   * (directAnswers.ts): a request of the same question that comes meanwhile waits for it, as for one of
   * the middleware's. Returns how to end it (`outcome` is made only if a request waits), or "running"
   * when the question is being answered already (the caller leaves the request to the layers, which wait).
   */
  begin(url: string, floor?: number): EndExecution | "running" {
    if (!this.heightKnown) return NOTHING_SHARED; // the middleware shares nothing either
    const key = this.latestKey(url, floor); // the middleware's key for it: the URL as the question
    if (this.running.has(key)) return "running";
    const execution: Execution = { waiting: undefined };
    this.running.set(key, execution);
    return (outcome) => {
      this.running.delete(key);
      execution.waiting?.settle(outcome());
    };
  }

  /** A question at the latest height: another once a block came, and another on each connection height floor. */
  private latestKey(question: string, floor: number | undefined): string {
    return `${this.generation}\n${floor ?? ""}\n${question}`;
  }

  private answerFrom(ctx: Context, next: Next, outcome: Outcome): Promise<void> {
    if (outcome.kind === "unshared") return next() as Promise<void>;
    this.counts.shared++;
    (ctx.state as { shared?: boolean }).shared = true;
    if (outcome.kind === "error") throw outcome.error;
    (ctx as { _matchedRoute?: unknown })._matchedRoute = outcome.route;
    setHeaders(ctx.res, outcome.headers);
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
