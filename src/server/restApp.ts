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
import { turnBatching } from "../http/turnBatching.js";
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
  /** A REST worker's number (api.workers > 1): each answer names it in X-Chain-Rest-Worker. */
  workerId?: number;
}

/** The REST server's Koa application: both route families, their error bodies, CORS when enabled. */
export function createRestApp(options: RestAppOptions): Koa {
  const app = new Koa();
  app.silent = true; // errors are answered and logged by the family middleware, not printed by Koa
  if (options.workerId !== undefined) app.use(nameWorker(String(options.workerId)));
  if (options.requestScope) app.use(options.requestScope);
  if (options.meter) app.use(options.meter);
  if (options.cors) {
    // Unlike the real server, the height header may be sent and the answered height read cross-origin.
    app.use(
      cors({
        origin: "*",
        allowMethods: ["GET", "HEAD", "POST"],
        allowHeaders: ["Accept", "Accept-Language", "Content-Language", "Content-Type", "Origin", HEIGHT_HEADER, "Last-Event-ID"],
        exposeHeaders: [RESPONSE_HEIGHT_HEADER, PLAIN_RESPONSE_HEIGHT_HEADER, "X-Chain-Rest-Upstream", "X-Chain-Rest-Broadcast"],
      }),
    );
  }
  app.use(gatewayErrors);
  if (options.health) app.use(options.health);
  if (options.events) app.use(options.events);
  if (options.metrics) app.use(options.metrics);
  // outside the answer cache and /swagger: what they answer is compressed and given cache headers too
  const bodies = options.encodedBodies ?? new EncodedBodies();
  app.use(compression(bodies));
  app.use(httpCaching(options.cacheMaxAge ?? 0, bodies, (height) => options.deps.client.heightsRewritable?.(height) ?? false));
  const tables = { gateway: options.gatewayRoutes, legacy: options.legacy };
  app.use(swaggerRoutes(options.swagger ? () => writeSwaggerDocument(tables, options.deps.codec.root) : null));
  app.use(nodeNamesGuard(options.nodeNames));
  if (options.disabledRoutes) app.use(options.disabledRoutes); // before the cache: nothing kept is answered for them
  if (options.answerCache) app.use(options.answerCache.middleware);
  // what the cache did not answer: one execution per question asked at once, for both families
  if (options.sharedExecutions) app.use(options.sharedExecutions.middleware);
  // what the answer cache did not answer runs with the other requests of its event-loop turn
  app.use(turnBatching());
  // Legacy routes first, as the real server registers them: they take precedence. They answer
  // their own errors ({"error": ...}); a legacy path with another verb falls through to the 501.
  if (options.legacy) app.use(legacyRoutes(options.legacy.routes, legacyDeps(options.deps, options.legacy.transforms)));
  app.use(gatewayRoutes(options.gatewayRoutes, options.deps));
  app.use(refusedPathVariables(options.deps));
  app.use(notImplemented);
  return app;
}

/** Names the worker that answers: which process served a request is otherwise invisible behind the shared socket. */
function nameWorker(id: string): Middleware {
  return (ctx, next) => {
    ctx.res.setHeader("X-Chain-Rest-Worker", id);
    return next();
  };
}
