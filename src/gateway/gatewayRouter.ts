import Router from "@koa/router";
import type { Context, Next } from "koa";
import type { RouteSpec } from "../tables/routeSpec.js";
import { segmentAccepts } from "../tables/routeOverlap.js";
import { bindRequest } from "./binder.js";
import { callMethod } from "./callMethod.js";
import { RESPONSE_HEIGHT_HEADER, requestedHeight } from "./height.js";
import { readJsonBody } from "./jsonBody.js";
import type { GatewayDeps } from "./gatewayDeps.js";

/** The Koa router of the gateway family, built from the compiled route table. */
export function buildGatewayRouter(routes: RouteSpec[], deps: GatewayDeps): Router {
  const router = new Router();
  for (const route of routes) {
    router[route.verb](koaPath(route), async (ctx: Context, next: Next) => {
      // Two table entries may share a shape (…/{a}/{b}); their match/reject patterns pick one.
      if (!patternsAccept(route, ctx.params as Record<string, string>)) return next();
      await serve(ctx, route, deps);
    });
  }
  return router;
}

async function serve(ctx: Context, route: RouteSpec, deps: GatewayDeps): Promise<void> {
  const height = requestedHeight(ctx.headers);
  const body = route.body ? await readJsonBody(ctx, deps.maxBodyBytes) : undefined;
  const request = bindRequest(route, { pathParams: ctx.params as Record<string, string>, query: new URLSearchParams(ctx.querystring), body }, deps.codec.parser);
  const result = await callMethod(route, request, height, deps);
  const json = deps.codec.renderer.render(route.responseType, result.response);
  if (result.height !== undefined) ctx.set(RESPONSE_HEIGHT_HEADER, String(result.height));
  ctx.type = "application/json";
  ctx.body = JSON.stringify(json, null, 2);
}

function koaPath(route: RouteSpec): string {
  return route.segments.map((s) => ("literal" in s ? `/${s.literal}` : `/:${s.variable}`)).join("");
}

function patternsAccept(route: RouteSpec, params: Record<string, string>): boolean {
  return route.segments.every((s) => "literal" in s || segmentAccepts(s, params[s.variable] ?? ""));
}
