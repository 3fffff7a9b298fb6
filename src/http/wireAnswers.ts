import type { IncomingMessage, ServerResponse } from "node:http";
import type { Answer, AnswerCache } from "./answerCache.js";
import { COMPRESS_FROM_BYTES } from "./compression.js";
import { writtenHead } from "./writtenHead.js";
import { GRPC_HEIGHT_HEADER, HEIGHT_HEADER, RESPONSE_HEIGHT_HEADER } from "./height.js";
import type { RequestMeter } from "./requestMeter.js";

/**
 * Kept answers written straight to node:http, ahead of Koa. An answer the
 * answer cache reuses goes out with the same head every time for the same
 * kind of request: the Koa layers above the cache (CORS, HTTP caching,
 * compression, the worker's name) only add headers that depend on the answer
 * and on a few request headers. So the head they wrote the first time an
 * answer was reused is learned, per request shape, and a later request of that
 * shape gets the same status, headers and bytes without a Koa context, its
 * promises and its layers — the largest share of a reused answer's CPU. It is
 * still counted, timed and logged (requestMeter.ts) as the Koa path counts it.
 *
 * Shapes written here: GET without a height header (a pinned answer's
 * Cache-Control may change when a dev chain snapshot is taken), without
 * If-None-Match (the Koa path answers 304), and without Accept-Encoding when
 * the body is large enough to be compressed; with or without an Origin header
 * (CORS adds its headers to the second). Any other request takes the Koa path.
 */
export class WireAnswers {
  constructor(
    private readonly cache: AnswerCache,
    private readonly meter: RequestMeter | undefined,
  ) {
    cache.onReuse = (req, answer) => {
      (req as Learning)[LEARNING] = answer;
    };
  }

  /** Answers `req` from a kept answer's learned head; false when the Koa layers must answer it. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "GET") return false;
    const started = performance.now();
    const shape = shapeOf(req);
    if (shape === NOT_WRITTEN) return false;
    const answer = this.cache.keptAnswer(req.url!);
    const head = answer?.wire[shape];
    if (!head || !fitsShape(req, answer.body)) return false;
    this.cache.counts.hits++;
    this.cache.counts.written++;
    res.writeHead(200, head.headers);
    res.end(answer.body);
    this.meter?.recordWritten(answer.route, performance.now() - started, head.height);
    return true;
  }

  /** After the Koa layers answered: learns the head of a reused answer for the request's shape. */
  learn(req: IncomingMessage, res: ServerResponse): void {
    const answer = (req as Learning)[LEARNING];
    if (!answer || res.statusCode !== 200 || res.getHeader("content-encoding") !== undefined || res.getHeader("transfer-encoding") !== undefined) return;
    const shape = shapeOf(req);
    if (shape === NOT_WRITTEN || !fitsShape(req, answer.body) || answer.wire[shape]) return;
    const height = Number(res.getHeader(RESPONSE_HEIGHT_HEADER));
    answer.wire[shape] = { headers: writtenHead(res), height: height > 0 ? height : undefined };
  }
}

const LEARNING = Symbol("kept answer reused");
type Learning = IncomingMessage & { [LEARNING]?: Answer };

const NOT_WRITTEN = -1;
const WITHOUT_ORIGIN = 0;
const WITH_ORIGIN = 1;

/** The request's shape (which learned head fits it), or NOT_WRITTEN for a request the Koa layers answer. */
function shapeOf(req: IncomingMessage): number {
  const headers = req.headers;
  if (headers[HEIGHT_HEADER] !== undefined || headers[GRPC_HEIGHT_HEADER] !== undefined || headers["if-none-match"] !== undefined) return NOT_WRITTEN;
  return headers.origin === undefined ? WITHOUT_ORIGIN : WITH_ORIGIN;
}

/** Whether the body goes out as it is for this request (the compression layer leaves it alone). */
function fitsShape(req: IncomingMessage, body: string | Buffer): boolean {
  return body.length < COMPRESS_FROM_BYTES || !req.headers["accept-encoding"];
}
