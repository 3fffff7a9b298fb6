import Router from "@koa/router";
import type { Context, Next } from "koa";
import type { RouteSpec } from "../tables/routeSpec.js";
import { segmentAccepts } from "../tables/routeOverlap.js";
import { bindRequest } from "./binder.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import { callMethod, type MethodResult } from "./callMethod.js";
import { presetResult } from "./presetResult.js";
import { requestDeps, type ScopeState } from "../http/upstreamScope.js";
import { PLAIN_RESPONSE_HEIGHT_HEADER, RESPONSE_HEIGHT_HEADER, requestedHeight } from "../http/height.js";
import { readJsonBody } from "../http/jsonBody.js";
import { setHeaders } from "../http/answerCache.js";
import type { RestDeps } from "../http/restDeps.js";
import { routeGroups } from "../http/routeGroups.js";
import { JSON_CONTENT_TYPE } from "../http/jsonContentType.js";

/** The gateway family's middleware: the table's routes, dispatched by path prefix (routeGroups.ts). */
export function gatewayRoutes(routes: RouteSpec[], deps: RestDeps) {
  return routeGroups(
    routes,
    (route) => route.segments,
    (subset) => buildGatewayRouter(subset, deps).routes(),
  );
}

/** The Koa router of the gateway family, built from the compiled route table. */
export function buildGatewayRouter(routes: RouteSpec[], deps: RestDeps): Router {
  const router = new Router();
  for (const route of routes) {
    router[route.verb](koaPath(route), async (ctx: Context, next: Next) => {
      // Two table entries may share a shape (…/{a}/{b}); their match/reject patterns pick one.
      if (!patternsAccept(route, ctx.params as Record<string, string>)) {
        (ctx.state as RefusedState).refusedBy ??= { route, params: { ...(ctx.params as Record<string, string>) } };
        return next() as Promise<void>;
      }
      await serve(ctx, route, deps);
    });
  }
  return router;
}

interface RefusedState {
  refusedBy?: { route: RouteSpec; params: Record<string, string> };
}

/**
 * After every route: a path that has a route's shape but a variable its
 * pattern refuses (GET …/blocks/abc, where only a number is a height) and
 * that no other route took is a bad value of that route, so 400 naming it —
 * as the real gateway answers a height that does not parse — not the 501 of
 * a path no route has.
 */
export function refusedPathVariables(deps: RestDeps) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const refused = (ctx.state as RefusedState).refusedBy;
    if (!refused) return next() as Promise<void>;
    bindRequest(refused.route, { pathParams: refused.params, query: new URLSearchParams(), body: undefined }, deps.codec.parser);
    const variable = refused.route.segments.find((s) => "variable" in s && !segmentAccepts(s, refused.params[s.variable] ?? ""));
    const name = variable && "variable" in variable ? variable.variable : "path";
    throw new GatewayError(GrpcCode.InvalidArgument, `invalid ${name} ${JSON.stringify(refused.params[name] ?? "")}: not a value of ${refused.route.path}`);
  };
}

/** The query of a request without one (bindRequest only reads it). */
const NO_QUERY: Readonly<URLSearchParams> = new URLSearchParams();

async function serve(ctx: Context, route: RouteSpec, deps: RestDeps): Promise<void> {
  const result = presetResult(ctx.req, route, (ctx.state as ScopeState).upstreamScope) ?? (await executeFor(ctx, route, deps));
  // node:http's own setHeader: Koa's ctx.set makes arrays and closures at every call (docs/guide/performance.md)
  setHeaders(ctx.res, answerHeaders(result.height === undefined ? undefined : String(result.height)));
  ctx.body = answerText(route, result, deps);
}

/** The headers a gateway answer gets from its route: the height it was read at (both spellings), the JSON type. */
export function answerHeaders(height: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (height !== undefined) {
    headers[RESPONSE_HEIGHT_HEADER] = height;
    headers[PLAIN_RESPONSE_HEIGHT_HEADER] = height;
  }
  headers["Content-Type"] = JSON_CONTENT_TYPE;
  return headers;
}

/** The route's method called for a Koa request: the height header read first (a bad one refused before the body is read). */
async function executeFor(ctx: Context, route: RouteSpec, deps: RestDeps): Promise<MethodResult> {
  const height = requestedHeight(ctx.headers);
  const body = route.body ? await readJsonBody(ctx, deps.maxBodyBytes) : undefined;
  const raw = { pathParams: ctx.params as Record<string, string>, querystring: ctx.querystring, height, body };
  return executeRoute(route, raw, requestDeps(ctx, deps));
}

/** A route's request, as the HTTP request gave it. */
interface RouteRequest {
  /** The path's variables, percent-decoded. */
  pathParams: Record<string, string>;
  querystring: string;
  /** The height the request names (0: the latest). */
  height: number;
  body: unknown;
}

/** Binds the request to the route's message, checks the page caps, calls its method. */
export function executeRoute(route: RouteSpec, raw: RouteRequest, deps: RestDeps): Promise<MethodResult> {
  const query = raw.querystring ? new URLSearchParams(raw.querystring) : NO_QUERY;
  const request = bindRequest(route, { pathParams: raw.pathParams, query, body: raw.body }, deps.codec.parser);
  deps.pageCaps?.checkRequest(request);
  return callMethod(route, request, raw.height, deps);
}

/** The answer's body: proto3 JSON, indented as the real gateway writes it. */
export function answerText(route: RouteSpec, result: MethodResult, deps: RestDeps): string {
  return JSON.stringify(deps.codec.renderer.render(route.responseType, result.response), null, 2);
}

export function koaPath(route: Pick<RouteSpec, "segments">): string {
  return route.segments.map((s) => ("literal" in s ? `/${s.literal}` : `/:${s.variable}`)).join("");
}

function patternsAccept(route: RouteSpec, params: Record<string, string>): boolean {
  return route.segments.every((s) => "literal" in s || segmentAccepts(s, params[s.variable] ?? ""));
}
