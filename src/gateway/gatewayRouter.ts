import Router from "@koa/router";
import type { Context, Next } from "koa";
import type { RouteSpec } from "../tables/routeSpec.js";
import { segmentAccepts } from "../tables/routeOverlap.js";
import { bindRequest } from "./binder.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import { callMethod } from "./callMethod.js";
import { PLAIN_RESPONSE_HEIGHT_HEADER, RESPONSE_HEIGHT_HEADER, requestedHeight } from "../http/height.js";
import { readJsonBody } from "../http/jsonBody.js";
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

async function serve(ctx: Context, route: RouteSpec, deps: RestDeps): Promise<void> {
  const height = requestedHeight(ctx.headers);
  const body = route.body ? await readJsonBody(ctx, deps.maxBodyBytes) : undefined;
  const request = bindRequest(
    route,
    { pathParams: ctx.params as Record<string, string>, query: new URLSearchParams(ctx.querystring), body },
    deps.codec.parser,
  );
  deps.pageCaps?.checkRequest(request);
  const result = await callMethod(route, request, height, deps);
  const json = deps.codec.renderer.render(route.responseType, result.response);
  if (result.height !== undefined) {
    ctx.set(RESPONSE_HEIGHT_HEADER, String(result.height));
    ctx.set(PLAIN_RESPONSE_HEIGHT_HEADER, String(result.height));
  }
  ctx.set("Content-Type", JSON_CONTENT_TYPE);
  ctx.body = JSON.stringify(json, null, 2);
}

export function koaPath(route: Pick<RouteSpec, "segments">): string {
  return route.segments.map((s) => ("literal" in s ? `/${s.literal}` : `/:${s.variable}`)).join("");
}

function patternsAccept(route: RouteSpec, params: Record<string, string>): boolean {
  return route.segments.every((s) => "literal" in s || segmentAccepts(s, params[s.variable] ?? ""));
}
