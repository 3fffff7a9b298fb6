import type { Context, Next } from "koa";
import { ConfigError } from "../config/tomlConfig.js";
import { GatewayError, GrpcCode } from "./grpcStatus.js";
import { goJson } from "../codec/amino/aminoJson.js";
import { JSON_CONTENT_TYPE } from "./jsonContentType.js";
import { pathMatches, pathSegments, type TableRoute } from "./routeMatcher.js";

/** A disabled route: a table route, with the verb the setting named (undefined: every verb of the template). */
interface Disabled {
  route: TableRoute;
  verb?: string;
}

const ENTRY = /^(?:(GET|POST|PUT|DELETE|PATCH|HEAD)\s+)?(\/\S*)$/i;

/**
 * api.disabled-routes: comma-separated route templates, each with an optional
 * verb first ("GET /txs"), of either table. A template no table has stops the
 * start (a typo would otherwise leave the route served).
 */
export function parseDisabledRoutes(setting: string, routes: readonly TableRoute[]): Disabled[] {
  const disabled: Disabled[] = [];
  for (const entry of setting.split(",")) {
    const text = entry.trim();
    if (text === "") continue;
    const parsed = ENTRY.exec(text);
    if (!parsed) throw new ConfigError(`api.disabled-routes: "${text}" is not a route template (like "/txs" or "GET /txs/{hash}")`);
    const verb = parsed[1]?.toLowerCase();
    const found = routes.filter((route) => route.path === parsed[2] && (verb === undefined || route.verb === verb));
    if (found.length === 0) throw new ConfigError(`api.disabled-routes: no route of routes.yaml or legacy-routes.yaml is "${text}"`);
    for (const route of found) disabled.push({ route, verb });
  }
  return disabled;
}

/**
 * Answers a disabled route 403 with its family's error body, before the answer
 * cache and the routes. The check is one pass over the disabled routes (an
 * operator's short list), each compared segment by segment.
 */
export function disabledRoutes(disabled: readonly Disabled[]) {
  return (ctx: Context, next: Next): Promise<void> => {
    if (disabled.length === 0) return next() as Promise<void>;
    const segments = pathSegments(ctx.path);
    const method = ctx.method.toLowerCase();
    const hit = disabled.find(({ route }) => route.verb === method && pathMatches(route, segments));
    if (!hit) return next() as Promise<void>;
    const message = `${ctx.method} ${hit.route.path} is disabled by the operator of this server (api.disabled-routes)`;
    if (hit.route.family === "gateway") throw new GatewayError(GrpcCode.PermissionDenied, message);
    ctx.status = 403;
    ctx.set("Content-Type", JSON_CONTENT_TYPE);
    ctx.body = goJson({ error: message });
    return Promise.resolve();
  };
}
