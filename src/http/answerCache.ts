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

/**
 * Answers reused while the chain's state has not changed. The state at a
 * committed height never changes, so a GET answered 200 at latest height H is
 * answered again from memory (same status, headers and bytes) until the client
 * says the height moved; every such notice empties the cache. While the client
 * cannot tell the height (no watch, or a dropped subscription) nothing is
 * reused: a reused answer is never older than the state the node would read.
 * Memory is bounded by `maxBytes` (least recently used answers leave first).
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, Answer>;
  /** The latest height the client told, undefined while it cannot tell. */
  private latest: number | undefined;
  /** Bumped on every notice: an answer computed across a notice is not kept. */
  private generation = 0;
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

  private onHeight(latest: number | undefined): void {
    this.latest = latest;
    this.generation++;
    this.answers.clear();
  }
}

function bodyBytes(body: string | Buffer): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.length;
}

/** What makes two requests the same question: path and query as sent, and the requested height. */
function requestKey(ctx: Context): string {
  return `${ctx.url}\n${ctx.get(HEIGHT_HEADER)}\n${ctx.get(`grpc-metadata-${HEIGHT_HEADER}`)}`;
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
