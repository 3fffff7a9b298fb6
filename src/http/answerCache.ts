import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Context, Next } from "koa";
import { LRUCache } from "lru-cache";
import type { ChainClient } from "../client/chainClient.js";
import { rawHeaderNames } from "./writtenHead.js";
import { answeredHeightText, GRPC_HEIGHT_HEADER, HEIGHT_HEADER } from "./height.js";

export interface Answer {
  headers: Record<string, string>;
  /** The route template that answered (@koa/router's _matchedRoute), for the request metrics of a reuse. */
  route: unknown;
  /** Kept as the route set it: node:http joins a string body to the head in one chunk (a Buffer is a chunk of its own). */
  body: string | Buffer;
  /** The answer's whole head as it went out, by request shape (wireAnswers.ts); dropped with the answer. */
  wire: Array<WireHead | undefined>;
}

/** A kept answer's response head as Koa's layers wrote it: a flat [name, value, …] list and the answered height. */
interface WireHead {
  headers: string[];
  height: number | undefined;
}

/**
 * Bytes counted per answer beyond its body and key: the headers the route set, the entry, and the
 * heads of the request shapes written straight to node:http (wireAnswers.ts: two at most).
 */
const ENTRY_OVERHEAD = 1024;
/** Slots of the table of requests asked since the height moved (4 bytes each: 512 KiB). */
const ASKED_SLOTS = 1 << 17;

/**
 * Answers reused while the chain's state has not changed. The state at a
 * committed height never changes, so a GET answered 200 at latest height H is
 * answered again from memory (same status, headers and bytes) until the client
 * says the height moved; every such notice empties the cache. While the client
 * cannot tell the height (no watch, or a dropped subscription) nothing is
 * reused: a reused answer is never older than the state the node would read.
 * An answer is kept when its request comes a second time at the same height:
 * requests asked once (another account each time) cost no copy, no entry and
 * no garbage, nor a lookup among the kept answers. Which requests were asked
 * is a fixed table of their hashes, one slot each: a request whose slot another
 * took since is taken for a first ask (answered once more, then kept). Memory is
 * bounded by `maxBytes` (least recently used answers leave first).
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, Answer>;
  /** The latest height the client told, undefined while it cannot tell. */
  private latest: number | undefined;
  /** Bumped on every notice: an answer computed across a notice is not kept. */
  private generation = 0;
  /** The hash of the request last asked in each slot since the height moved (0: none). */
  private readonly asked = new Int32Array(ASKED_SLOTS);
  private readonly unwatch: () => void;

  /**
   * For the metrics: GETs answered from memory (and of those, the ones written without Koa:
   * wireAnswers.ts), GETs that could have been and were not, answers pushed out by newer ones.
   */
  readonly counts = { hits: 0, written: 0, misses: 0, evictions: 0 };

  /**
   * `shared`: with several REST workers, the height every process knows
   * (SharedHeight): this worker tells it the heights it learns and reads it
   * before reusing an answer, since its own notice of a commit can come later
   * than a client who saw the commit elsewhere.
   */
  constructor(
    client: ChainClient,
    maxBytes: number,
    private readonly shared?: HeightExchange,
  ) {
    this.answers = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => bodyBytes(answer.body) + key.length + ENTRY_OVERHEAD,
      disposeAfter: (_answer, _key, reason) => {
        if (reason === "evict") this.counts.evictions++;
      },
    });
    this.unwatch = client.watchHeights?.((latest) => this.onHeight(latest)) ?? (() => undefined);
  }

  /** The Koa middleware: in front of the route families, behind CORS, errors and /swagger. */
  readonly middleware = (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== "GET" || this.latest === undefined) return next() as Promise<void>;
    const key = requestKey(ctx.url, ctx.req.headers);
    if (!this.askedBefore(key)) {
      this.counts.misses++;
      return next() as Promise<void>;
    }
    const reused = this.answers.get(key);
    if (reused && this.heightMoved()) return next() as Promise<void>;
    if (reused) {
      this.counts.hits++;
      (ctx.state as { fromCache?: boolean }).fromCache = true;
      (ctx as { _matchedRoute?: unknown })._matchedRoute = reused.route;
      setHeaders(ctx.res, reused.headers);
      ctx.body = reused.body;
      this.onReuse?.(ctx.req, reused);
      return Promise.resolve();
    }
    this.counts.misses++;
    return this.answerAndKeep(ctx, next, key);
  };

  /** Told of every answer reused through the Koa layers (wireAnswers.ts learns its head there). */
  onReuse: ((req: IncomingMessage, answer: Answer) => void) | undefined;

  /**
   * The answer kept for `url` (a GET with no height header), to be written without Koa; undefined
   * when the Koa layers must answer (nothing kept, or the height moved). Counts nothing: the
   * caller counts what it writes, the middleware what the Koa layers answer.
   */
  keptAnswer(url: string): Answer | undefined {
    if (this.latest === undefined || !this.wasAsked(url)) return undefined;
    const kept = this.answers.get(url);
    return kept && !this.heightMoved() ? kept : undefined;
  }

  /**
   * Whether a GET of `url` (no height header) would be answered and not kept by the middleware: a
   * first ask since the height moved, or any ask while the height is not followed. Marks nothing:
   * a caller that answers it outside the Koa layers says so with answeredOnce (directAnswers.ts).
   */
  answersOnce(url: string): boolean {
    return this.latest === undefined || !this.wasAsked(url);
  }

  /** A first ask of `url` was answered outside the Koa layers: counted and remembered as the middleware does. */
  answeredOnce(url: string): void {
    if (this.latest === undefined) return;
    this.askedBefore(url);
    this.counts.misses++;
  }

  /** Bytes the kept answers take (bodies, keys and ENTRY_OVERHEAD each). */
  get bytesHeld(): number {
    return this.answers.calculatedSize;
  }

  stop(): void {
    this.unwatch();
    this.answers.clear();
  }

  private async answerAndKeep(ctx: Context, next: Next, key: string): Promise<void> {
    const generation = this.generation;
    const before = ctx.res.getHeaders(); // a copy: what the outer layers set
    await next();
    if (ctx.status !== 200 || generation !== this.generation || this.latest === undefined) return;
    const body: unknown = ctx.body;
    if (typeof body !== "string" && !Buffer.isBuffer(body)) return;
    // behind several nodes a latest-height answer may come from one a block behind the best: kept, it
    // would be served to a client already answered at the best height
    if (answeredBelow(ctx, this.latest)) return;
    this.answers.set(key, { headers: headersSetBy(ctx, before), route: (ctx as { _matchedRoute?: unknown })._matchedRoute, body, wire: [] });
  }

  /** Whether `key` was asked since the height moved (a hash collision only keeps an answer one ask early); remembers it. */
  private askedBefore(key: string): boolean {
    const hash = askedHash(key);
    const slot = hash >>> 15; // the top 17 bits (wasAsked reads the same slot)
    if (this.asked[slot] === hash) return true;
    this.asked[slot] = hash;
    return false;
  }

  /** Whether `key` was asked since the height moved, without remembering this ask. */
  private wasAsked(key: string): boolean {
    const hash = askedHash(key);
    return this.asked[hash >>> 15] === hash; // its slot: the top 17 bits
  }

  /** Whether another process knows a later height than this one's notices told: then it is taken as told (nothing kept is reused). */
  private heightMoved(): boolean {
    if (!this.shared || this.latest === undefined) return false;
    const known = this.shared.read();
    if (known <= this.latest) return false;
    this.onHeight(known);
    return true;
  }

  private onHeight(latest: number | undefined): void {
    if (latest !== undefined && latest > (this.latest ?? 0)) this.shared?.tell(latest);
    this.latest = latest;
    this.generation++;
    this.answers.clear();
    this.asked.fill(0);
  }
}

/** The height several processes know (a SharedHeight slot of this process's, and the highest of all). */
export interface HeightExchange {
  read(): number;
  tell(height: number): void;
}

function bodyBytes(body: string | Buffer): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.length;
}

/** What makes two requests the same question: path and query as sent, and the requested height. */
export function requestKey(url: string, headers: IncomingHttpHeaders): string {
  const height = headers[HEIGHT_HEADER];
  const grpcHeight = headers[GRPC_HEIGHT_HEADER];
  return height === undefined && grpcHeight === undefined ? url : `${url}\n${String(height ?? "")}\n${String(grpcHeight ?? "")}`;
}

/** A key's mark in the table of asked requests (never 0, which marks an empty slot). */
function askedHash(key: string): number {
  return stringHash(key) || 1;
}

/** FNV-1a over the UTF-16 code units (a 32-bit integer). */
function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/**
 * The response headers the route set (content type, answered height, deprecation), not those of outer
 * middleware (`before`: getHeaders() before the route ran), named as the route wrote them: an answer
 * given again has the same head, byte for byte, as the first.
 */
export function headersSetBy(ctx: Context, before: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of rawHeaderNames(ctx.res)) {
    const lower = name.toLowerCase();
    const value = ctx.res.getHeader(lower);
    if (lower === "content-length" || before[lower] === value || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return headers;
}

/** Sets kept headers with node:http's own setHeader (Koa's ctx.set makes arrays and closures at every call). */
export function setHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}

/** A latest-height request answered (Grpc-Metadata-X-Cosmos-Block-Height) below `latest`. */
function answeredBelow(ctx: Context, latest: number): boolean {
  const headers = ctx.req.headers;
  if (headers[HEIGHT_HEADER] !== undefined || headers[GRPC_HEIGHT_HEADER] !== undefined) return false;
  const answered = Number(answeredHeightText(ctx.res));
  return answered > 0 && answered < latest;
}
