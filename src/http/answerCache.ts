import type { Context, Next } from "koa";
import { LRUCache } from "lru-cache";
import type { ChainClient } from "../client/chainClient.js";
import { HEIGHT_HEADER } from "./height.js";

interface Answer {
  headers: Record<string, string>;
  /** Kept as the route set it: node:http joins a string body to the head in one chunk (a Buffer is a chunk of its own). */
  body: string | Buffer;
}

/** Bytes counted per answer beyond its body and key (headers, the entry itself). */
const ENTRY_OVERHEAD = 256;
/** Requests remembered as asked once at the latest height (hashes: 8 bytes each); forgotten all at once when full. */
const ASKED_ONCE_LIMIT = 1 << 18;

/**
 * Answers reused while the chain's state has not changed. The state at a
 * committed height never changes, so a GET answered 200 at latest height H is
 * answered again from memory (same status, headers and bytes) until the client
 * says the height moved; every such notice empties the cache. While the client
 * cannot tell the height (no watch, or a dropped subscription) nothing is
 * reused: a reused answer is never older than the state the node would read.
 * An answer is kept when its request comes a second time at the same height:
 * requests asked once (another account each time) cost no copy, no entry and
 * no garbage. Memory is bounded by `maxBytes` (least recently used answers
 * leave first).
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, Answer>;
  /** The latest height the client told, undefined while it cannot tell. */
  private latest: number | undefined;
  /** Bumped on every notice: an answer computed across a notice is not kept. */
  private generation = 0;
  /** Hashes of the requests asked once since the height moved: the next ask of one is kept. */
  private readonly askedOnce = new Set<number>();
  private readonly unwatch: () => void;

  constructor(client: ChainClient, maxBytes: number) {
    this.answers = new LRUCache({ maxSize: maxBytes, sizeCalculation: (answer, key) => bodyBytes(answer.body) + key.length + ENTRY_OVERHEAD });
    this.unwatch = client.watchHeights?.((latest) => this.onHeight(latest)) ?? (() => undefined);
  }

  /** The Koa middleware: in front of the route families, behind CORS, errors and /swagger. */
  readonly middleware = async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.method !== "GET" || this.latest === undefined) return next() as Promise<void>;
    const key = requestKey(ctx);
    const reused = this.answers.get(key);
    if (reused) {
      ctx.set(reused.headers);
      ctx.body = reused.body;
      return;
    }
    if (!this.askedBefore(key)) return next() as Promise<void>;
    const generation = this.generation;
    const before = { ...ctx.response.headers };
    await next();
    if (ctx.status !== 200 || generation !== this.generation || this.latest === undefined) return;
    const body: unknown = ctx.body;
    if (typeof body !== "string" && !Buffer.isBuffer(body)) return;
    this.answers.set(key, { headers: headersSetBy(ctx, before), body });
  };

  stop(): void {
    this.unwatch();
    this.answers.clear();
  }

  /** Whether `key` was asked since the height moved (a hash collision only keeps an answer one ask early); remembers it. */
  private askedBefore(key: string): boolean {
    const hash = stringHash(key);
    if (this.askedOnce.has(hash)) return true;
    if (this.askedOnce.size >= ASKED_ONCE_LIMIT) this.askedOnce.clear();
    this.askedOnce.add(hash);
    return false;
  }

  private onHeight(latest: number | undefined): void {
    this.latest = latest;
    this.generation++;
    this.answers.clear();
    this.askedOnce.clear();
  }
}

function bodyBytes(body: string | Buffer): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.length;
}

/** What makes two requests the same question: path and query as sent, and the requested height. */
function requestKey(ctx: Context): string {
  return `${ctx.url}\n${ctx.get(HEIGHT_HEADER)}\n${ctx.get(`grpc-metadata-${HEIGHT_HEADER}`)}`;
}

/** FNV-1a over the UTF-16 code units, cut to 30 bits: a small integer, which a Set holds without an object per entry. */
function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash & 0x3fffffff;
}

/** The response headers the route set (content type, answered height, deprecation), not those of outer middleware. */
function headersSetBy(ctx: Context, before: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (name === "content-length" || before[name] === value || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return headers;
}
