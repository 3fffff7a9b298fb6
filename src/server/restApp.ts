import Koa, { type Middleware } from "koa";
import cors from "@koa/cors";
import type { RouteSpec } from "../tables/routeSpec.js";
import type { LegacyRouteSpec } from "../tables/legacyRouteSpec.js";
import type { AminoTransforms } from "../tables/aminoTransforms.js";
import { legacyRoutes } from "../legacy/legacyRouter.js";
import { legacyDeps } from "../legacy/legacyDeps.js";
import { gatewayErrors, notImplemented } from "../http/errorBody.js";
import { gatewayRoutes, refusedPathVariables } from "../gateway/gatewayRouter.js";
import type { RestDeps } from "../http/restDeps.js";
import { HEIGHT_HEADER, PLAIN_RESPONSE_HEIGHT_HEADER, RESPONSE_HEIGHT_HEADER } from "../http/height.js";
import type { AnswerCache } from "../http/answerCache.js";
import type { SharedExecutions } from "../http/sharedExecutions.js";
import { writeSwaggerDocument } from "../openapi/swaggerDocument.js";
import { swaggerRoutes } from "../openapi/swaggerRoutes.js";
import { nodeNamesGuard } from "../http/nodeNames.js";
import { turnBatching, type TurnBatch } from "../http/turnBatching.js";
import { httpCaching } from "../http/httpCaching.js";
import { compression } from "../http/compression.js";
import { EncodedBodies } from "../http/encodedBodies.js";

export interface RestAppOptions {
  gatewayRoutes: RouteSpec[];
  /** The legacy family (legacy-routes.yaml) and the amino transforms it renders with; absent: no legacy routes. */
  legacy?: { routes: LegacyRouteSpec[]; transforms: AminoTransforms };
  deps: RestDeps;
  /** api.enabled-unsafe-cors */
  cors: boolean;
  /** api.swagger: serve GET /swagger and the UI at /swagger/ (when false, both answer 404). */
  swagger?: boolean;
  /** Answers reused while the state has not changed (api.answer-cache-mb); absent: none. */
  answerCache?: AnswerCache;
  /** Concurrent identical GETs answered by one execution (sharedExecutions.ts); absent: each runs. */
  sharedExecutions?: SharedExecutions;
  /** api.disabled-routes: answered 403 with the family's error body (disabledRoutes.ts). */
  disabledRoutes?: Middleware;
  /** The naming profile the node speaks, when detected (gateway): another than ours answers 502. */
  nodeNames?: string;
  /** Counts, times and logs every request (requestMeter.ts); outermost, so it sees every answer. */
  meter?: Middleware;
  /** GET /healthz and /readyz (health.ts). */
  health?: Middleware;
  /** GET /events: the node's events as server-sent events (eventStream.ts). */
  events?: Middleware;
  /** GET /metrics ([telemetry] enabled; metricsRoute.ts). */
  metrics?: Middleware;
  /** api.cache-max-age: seconds an answer at the latest height may be reused by HTTP caches (0: no-cache, revalidated by ETag). */
  cacheMaxAge?: number;
  /** Digests and compressed forms of the answers (their counts are metered); absent: the app's own. */
  encodedBodies?: EncodedBodies;
  /** A gateway in front of several nodes: each request's scope (the connection's height floor; upstreamScope.ts). */
  requestScope?: Middleware;
  /** The event-loop turns requests are held to (shared with directAnswers.ts); absent: the app's own. */
  turns?: TurnBatch;
  /** A REST worker's number (api.workers > 1): each answer names it in X-Chain-Rest-Worker. */
  workerId?: number;
}

/** The REST server's Koa application: both route families, their error bodies, CORS when enabled. */
export function createRestApp(options: RestAppOptions): Koa {
  const app = new Koa();
  app.silent = true; // errors are answered and logged by the family middleware, not printed by Koa
  for (const layer of restLayers(options)) if (layer.middleware) app.use(layer.middleware);
  return app;
}

/** A layer's middleware, typed for the routers' context (the other layers take less of it). */
type LayerMiddleware = ReturnType<typeof gatewayRoutes>;

/** One layer of the REST app; `middleware` is absent when its setting is off (then the layer is skipped). */
interface RestLayer {
  name: string;
  middleware: LayerMiddleware | undefined;
}

/**
 * The REST app's layers, outermost first: a request passes them top to bottom until one answers,
 * and its answer passes back up through the ones above. Each line says why the layer sits where it
 * does; the request flow as a whole is described in docs/design/request-flow.md.
 */
function restLayers(options: RestAppOptions): RestLayer[] {
  const bodies = options.encodedBodies ?? new EncodedBodies();
  const tables = { gateway: options.gatewayRoutes, legacy: options.legacy };
  return [
    // first of all: every answer, even an error or a CORS preflight, names the worker that gave it
    { name: "worker name", middleware: options.workerId === undefined ? undefined : nameWorker(String(options.workerId)) },
    // outside everything that reaches an upstream node: the client connection's height floor (gateway --node with several nodes)
    { name: "request scope", middleware: options.requestScope },
    // outside everything that can answer, so that it counts, times and logs every answer
    { name: "request meter", middleware: options.meter },
    // before any route: a preflight is answered here, and every answer (errors too) gets the CORS headers
    { name: "CORS", middleware: options.cors ? corsLayer() : undefined },
    // around everything below: an error thrown anywhere under it becomes the gateway's error body
    { name: "gateway errors", middleware: gatewayErrors },
    // ahead of the caches and the node's routes: probes answer from the process, never from a cached answer
    { name: "health", middleware: options.health },
    // a long-lived stream: ahead of compression and HTTP caching, which would buffer or tag it
    { name: "event stream", middleware: options.events },
    // the scrape is not an API answer: not compressed by the layer below, not cached, not batched
    { name: "metrics", middleware: options.metrics },
    // outside the answer cache and /swagger: what they answer is compressed too
    { name: "compression", middleware: compression(bodies) },
    // outside the answer cache and /swagger: what they answer gets ETag and Cache-Control too
    {
      name: "HTTP caching",
      middleware: httpCaching(options.cacheMaxAge ?? 0, bodies, (height) => options.deps.client.heightsRewritable?.(height) ?? false),
    },
    // served from the process (the document, the UI's files): ahead of the names guard and the node's routes
    { name: "swagger", middleware: swaggerRoutes(options.swagger ? () => writeSwaggerDocument(tables, options.deps.codec.root) : null) },
    // ahead of every answer that the node gives (and the cache keeps): a node that speaks other names answers 502
    { name: "node names guard", middleware: nodeNamesGuard(options.nodeNames) },
    // before the cache: nothing kept is answered for a route the operator disabled
    { name: "disabled routes", middleware: options.disabledRoutes },
    // ahead of the batching and the routes: a kept answer costs no wait and no query
    { name: "answer cache", middleware: options.answerCache?.middleware },
    // what the cache did not answer: one execution per question asked at once, for both families
    { name: "shared executions", middleware: options.sharedExecutions?.middleware },
    // what the answer cache did not answer runs with the other requests of its event-loop turn
    { name: "turn batching", middleware: turnBatching(options.turns) },
    // legacy routes first, as the real server registers them: they take precedence; they answer their
    // own errors ({"error": ...}); a legacy path with another verb falls through to the 501
    { name: "legacy routes", middleware: options.legacy && legacyRoutes(options.legacy.routes, legacyDeps(options.deps, options.legacy.transforms)) },
    { name: "gateway routes", middleware: gatewayRoutes(options.gatewayRoutes, options.deps) },
    // after the routes: a path that matched no route only because a variable was refused gets its 400
    { name: "refused path variables", middleware: refusedPathVariables(options.deps) },
    // last: whatever nothing above answered is the gateway's 501
    { name: "not implemented", middleware: notImplemented },
  ];
}

/** Unlike the real server, the height header may be sent and the answered height read cross-origin. */
function corsLayer(): Middleware {
  return cors({
    origin: "*",
    allowMethods: ["GET", "HEAD", "POST"],
    allowHeaders: ["Accept", "Accept-Language", "Content-Language", "Content-Type", "Origin", HEIGHT_HEADER, "Last-Event-ID"],
    exposeHeaders: [RESPONSE_HEIGHT_HEADER, PLAIN_RESPONSE_HEIGHT_HEADER, "X-Chain-Rest-Upstream", "X-Chain-Rest-Broadcast"],
  });
}

/** Names the worker that answers: which process served a request is otherwise invisible behind the shared socket. */
function nameWorker(id: string): Middleware {
  return (ctx, next) => {
    ctx.res.setHeader("X-Chain-Rest-Worker", id);
    return next();
  };
}
