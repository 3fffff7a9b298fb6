import type { IncomingMessage, ServerResponse } from "node:http";
import type { PathSegment, RouteSpec } from "../tables/routeSpec.js";
import { answerHeaders, answerText, executeRoute } from "../gateway/gatewayRouter.js";
import { presetOutcome } from "../gateway/presetResult.js";
import type { AnswerCache } from "./answerCache.js";
import { COMPRESS_FROM_BYTES } from "./compression.js";
import { DirectRoutes, type DirectMatch } from "./directRoutes.js";
import type { EncodedBodies } from "./encodedBodies.js";
import { GRPC_HEIGHT_HEADER, HEIGHT_HEADER, PLAIN_RESPONSE_HEIGHT_HEADER, RESPONSE_HEIGHT_HEADER } from "./height.js";
import { entityTag } from "./httpCaching.js";
import { writtenHead } from "./writtenHead.js";
import { JSON_CONTENT_TYPE } from "./jsonContentType.js";
import type { RequestMeter } from "./requestMeter.js";
import type { RestDeps } from "./restDeps.js";
import type { EndExecution, SharedExecutions } from "./sharedExecutions.js";
import type { TurnBatch } from "./turnBatching.js";
import { raiseFloor, requestScopeOn, scopedDeps, UPSTREAM_HEADER } from "./upstreamScope.js";
import type { UpstreamRequestScope } from "../client/upstreams/requestScope.js";

export interface DirectAnswersOptions {
  gatewayRoutes: readonly RouteSpec[];
  /** Routes whose paths are left to the Koa layers: the legacy family's (their routers come first), the disabled ones. */
  leftToKoa: ReadonlyArray<{ segments: PathSegment[] }>;
  deps: RestDeps;
  bodies: EncodedBodies;
  turns: TurnBatch;
  answerCache?: AnswerCache;
  sharedExecutions?: SharedExecutions;
  meter?: RequestMeter;
  /** A gateway in front of several nodes: each request runs in its connection's scope (upstreamScope.ts), as through the layers. */
  scoped?: boolean;
}

/** The variable headers of a learned head: filled per answer. */
const LENGTH = 0;
const ETAG = 1;
const HEIGHT = 2;
const UPSTREAM = 3;
const SLOTS: Record<string, number> = {
  "content-length": LENGTH,
  etag: ETAG,
  [RESPONSE_HEIGHT_HEADER.toLowerCase()]: HEIGHT,
  [PLAIN_RESPONSE_HEIGHT_HEADER.toLowerCase()]: HEIGHT,
  [UPSTREAM_HEADER.toLowerCase()]: UPSTREAM,
};

/** A route's answer head as the Koa layers wrote it: [name, value, …], and where each variable header sits. */
interface Head {
  flat: string[];
  slots: Array<{ at: number; slot: number }>;
  hasHeight: boolean;
  hasUpstream: boolean;
}

/** What fills a head's variable headers. */
interface Written {
  body: string;
  height: string | undefined;
  upstream: string | undefined;
}

const LEARNING = Symbol("direct answer to learn");
type Learning = IncomingMessage & { [LEARNING]?: RouteSpec };

/**
 * First asks of the gateway's GET routes answered straight to node:http,
 * ahead of Koa: the query runs as in the route (the same binding, page caps,
 * method call and JSON), with the other requests of its turn (turnBatching.ts),
 * and the answer goes out with the head the Koa layers wrote for that route
 * the first time (learned per route, as wireAnswers.ts learns a kept
 * answer's), its length, ETag and height filled in. Koa's context, its
 * promises and a dozen layers were most of a cold request's CPU.
 *
 * Taken: a GET of a plain path (directRoutes.ts) with no height header, no
 * If-None-Match and no Origin, that the answer cache would answer and not keep
 * (a first ask), and that no identical request is being answered (else the
 * layers wait for that one). An identical request that comes meanwhile waits
 * for this one (sharedExecutions.ts). Every such request is counted, timed and
 * logged as the Koa path counts it. When the answer does not fit the learned
 * head (a body large enough to compress, a height the head lacks) or the
 * route fails, the outcome is handed to the Koa layers (presetResult.ts),
 * which answer it as any other, without running the query again.
 */
export class DirectAnswers {
  private readonly routes: DirectRoutes;
  private readonly heads = new Map<RouteSpec, Head>();

  /** First asks written here, and those whose outcome was handed to the Koa layers (metrics). */
  readonly counts = { written: 0, handedOn: 0 };

  constructor(private readonly options: DirectAnswersOptions) {
    this.routes = new DirectRoutes(options.gatewayRoutes, options.leftToKoa);
  }

  /** Takes `req` (true) or leaves it to the Koa layers (false); `handOn` runs them for a taken request that they must answer. */
  serve(req: IncomingMessage, res: ServerResponse, handOn: (req: IncomingMessage, res: ServerResponse) => void): boolean {
    if (req.method !== "GET") return false;
    const headers = req.headers;
    if (headers[HEIGHT_HEADER] !== undefined || headers[GRPC_HEIGHT_HEADER] !== undefined) return false;
    if (headers["if-none-match"] !== undefined || headers.origin !== undefined) return false;
    const url = req.url!;
    // a question asked before is the answer cache's: no route is matched for it here
    if (this.options.answerCache && !this.options.answerCache.answersOnce(url)) return false;
    const match = this.routes.match(url);
    if (!match) return false;
    const head = this.heads.get(match.route);
    if (!head) {
      (req as Learning)[LEARNING] = match.route;
      return false;
    }
    const scope = this.options.scoped ? requestScopeOn(req.socket) : undefined;
    const end = this.options.sharedExecutions ? this.options.sharedExecutions.begin(url, scope?.connection.floor) : undefined;
    if (end === "running") return false;
    void this.answer(req, res, { url, match, head, scope }, end ?? (() => undefined), () => handOn(req, res));
    return true;
  }

  /** After the Koa layers answered a request left to them for want of its route's head: learns that head. */
  learn(req: IncomingMessage, res: ServerResponse): void {
    const route = (req as Learning)[LEARNING];
    if (!route || this.heads.has(route) || res.statusCode !== 200) return;
    if (res.getHeader("content-encoding") !== undefined || res.getHeader("transfer-encoding") !== undefined) return;
    if (res.getHeader("content-type") !== JSON_CONTENT_TYPE || !(Number(res.getHeader("content-length")) < COMPRESS_FROM_BYTES)) return;
    const flat = writtenHead(res);
    const slots: Head["slots"] = [];
    let heights = 0;
    for (let at = 1; at < flat.length; at += 2) {
      const slot = SLOTS[flat[at - 1]!.toLowerCase()];
      if (slot !== undefined) slots.push({ at, slot });
      if (slot === HEIGHT) heights++;
    }
    const has = (slot: number) => slots.some((s) => s.slot === slot);
    if (!has(LENGTH) || !has(ETAG) || (heights !== 0 && heights !== 2)) return;
    this.heads.set(route, { flat, slots, hasHeight: heights === 2, hasUpstream: has(UPSTREAM) });
  }

  private async answer(
    req: IncomingMessage,
    res: ServerResponse,
    { url, match, head, scope }: { url: string; match: DirectMatch; head: Head; scope: UpstreamRequestScope | undefined },
    end: EndExecution,
    handOn: () => void,
  ): Promise<void> {
    const started = performance.now();
    const { deps } = this.options;
    let written: Written | undefined;
    try {
      await this.options.turns.endOfTurn();
      const request = { pathParams: match.params, querystring: match.querystring, height: 0, body: undefined }; // no height header: the latest
      const result = await executeRoute(match.route, request, scope ? scopedDeps(deps, scope) : deps);
      const body = answerText(match.route, result, deps);
      const height = result.height === undefined ? undefined : String(result.height);
      const upstream = scope?.answeredBy;
      end(() => ({ kind: "answer", status: 200, headers: answerHeaders(height), route: match.template, body }));
      if (body.length < COMPRESS_FROM_BYTES && (height !== undefined) === head.hasHeight && (upstream !== undefined) === head.hasUpstream) {
        written = { body, height, upstream };
      } else presetOutcome(req, { route: match.route, result, answeredBy: upstream });
    } catch (error) {
      end(() => ({ kind: "error", error }));
      presetOutcome(req, { route: match.route, error, answeredBy: scope?.answeredBy });
    }
    if (!written) {
      this.counts.handedOn++;
      handOn();
      return;
    }
    this.options.answerCache?.answeredOnce(url);
    this.counts.written++;
    if (scope) raiseFloor(scope, Number(written.height));
    res.writeHead(200, this.filled(head, written));
    res.end(written.body);
    this.options.meter?.recordWritten(match.template, performance.now() - started, written.height === undefined ? undefined : Number(written.height), false);
  }

  private filled(head: Head, written: Written): string[] {
    const flat = head.flat.slice();
    for (const { at, slot } of head.slots) {
      if (slot === LENGTH) flat[at] = String(Buffer.byteLength(written.body));
      else if (slot === ETAG) flat[at] = entityTag(written.height, written.body, this.options.bodies);
      else flat[at] = slot === HEIGHT ? written.height! : written.upstream!;
    }
    return flat;
  }
}
