import { requestDeps } from "../http/upstreamScope.js";
import Router from "@koa/router";
import { PLAIN_RESPONSE_HEIGHT_HEADER } from "../http/height.js";
import type { Context, Next } from "koa";
import { goJson } from "../codec/amino/aminoJson.js";
import type { JsonValue } from "../codec/json/renderProto3.js";
import { readJsonBody } from "../http/jsonBody.js";
import { GatewayError } from "../http/grpcStatus.js";
import type { Handler, LegacyRouteSpec, When } from "../tables/legacyRouteSpec.js";
import { segmentAccepts } from "../tables/routeOverlap.js";
import { fillText } from "../tables/legacyTemplates.js";
import { setDeprecationHeaders } from "./deprecationHeaders.js";
import type { Scope } from "./evaluate.js";
import type { LegacyDeps } from "./legacyDeps.js";
import { applyErrorRules, asLegacyError, LegacyError } from "./legacyErrors.js";
import { checkedParam, queryHeight } from "./legacyParams.js";
import { generateTx } from "./generateRoute.js";
import { answerQuery } from "./queryRoute.js";
import { broadcastStdTx, decodeTx, encodeStdTx, searchTxs, searchTxsEach } from "./txRoutes.js";
import { checkedAddress } from "./addressParams.js";
import { routeGroups } from "../http/routeGroups.js";
import { JSON_CONTENT_TYPE } from "../http/jsonContentType.js";
import { processLogger } from "../telemetry/processLogger.js";

/** The legacy family's middleware: the table's routes, dispatched by path prefix (routeGroups.ts). */
export function legacyRoutes(routes: LegacyRouteSpec[], deps: LegacyDeps) {
  return routeGroups(
    routes,
    (route) => route.segments,
    (subset) => buildLegacyRouter(subset, deps).routes(),
  );
}

/**
 * The Koa router of the legacy family, built from the compiled legacy table.
 * Every route answers amino JSON, in the {height, result} envelope or bare as
 * its entry says, with the deprecation headers where the real server sets
 * them (on errors too), and errors as {"error": "..."}.
 */
export function buildLegacyRouter(routes: LegacyRouteSpec[], deps: LegacyDeps): Router {
  const router = new Router();
  for (const route of routes) {
    router[route.verb](koaPath(route), async (ctx: Context, next: Next) => {
      const path = pathValues(route, ctx.params as Record<string, string>);
      // a path variable's reject pattern leaves the value to another route
      if (!route.segments.every((s) => "literal" in s || segmentAccepts(s, path[s.variable] ?? ""))) return next() as Promise<void>;
      await serve(ctx, route, path, deps);
    });
  }
  return router;
}

/** Koa path with positional parameter names, since table variables may hold "-" ({proposal-id}). */
export function koaPath(route: Pick<LegacyRouteSpec, "segments">): string {
  let n = 0;
  return route.segments.map((s) => ("literal" in s ? `/${s.literal}` : `/:v${n++}`)).join("");
}

function pathValues(route: LegacyRouteSpec, params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(route.variables.map((name, i) => [name, params[`v${i}`] ?? ""]));
}

async function serve(ctx: Context, route: LegacyRouteSpec, path: Record<string, string>, tableDeps: LegacyDeps): Promise<void> {
  const deps = requestDeps(ctx, tableDeps);
  if (route.deprecationHeaders) setDeprecationHeaders(ctx);
  const query = new URLSearchParams(ctx.querystring);
  const values: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(path)) values[`path.${name}`] = value;
  for (const [name, value] of query) values[`query.${name}`] ??= value;
  try {
    const { result, height } = await answer(ctx, route, path, query, values, deps);
    // the plain header every client can read, as on the gateway family (its gRPC-named one is the gateway's own)
    if (height > 0) ctx.res.setHeader(PLAIN_RESPONSE_HEIGHT_HEADER, String(height));
    write(ctx, 200, route.envelope === "height" ? { height: String(height), result } : result);
  } catch (err) {
    const error = asLegacyError(err);
    const outcome = applyErrorRules(route.errors, error, values);
    if (outcome.kind === "result") {
      write(ctx, 200, route.envelope === "height" ? { height: "0", result: outcome.value as JsonValue } : outcome.value);
      return;
    }
    if (error.unexpected) processLogger().error({ err }, `[legacy] ${ctx.method} ${ctx.url}`);
    write(ctx, outcome.status, { error: outcome.message, ...error.fields });
  }
}

async function answer(
  ctx: Context,
  route: LegacyRouteSpec,
  rawPath: Record<string, string>,
  query: URLSearchParams,
  values: Record<string, string | undefined>,
  deps: LegacyDeps,
): Promise<{ result: JsonValue; height: number }> {
  const chosen = route.handlers.find((h) => !h.when || applies(h.when, rawPath, query))!;
  const path: Record<string, string> = {};
  for (const [name, spec] of route.params.path) path[name] = checkedAddress(spec, checkedParam(spec, rawPath[name]), deps.bech32Prefix) ?? "";
  const queryValues: Record<string, string | undefined> = {};
  for (const [name, spec] of chosen.query) queryValues[name] = checkedAddress(spec, checkedParam(spec, query.get(name) ?? undefined), deps.bech32Prefix);
  const handler: Handler = chosen.handler;
  switch (handler.kind) {
    case "query": {
      const height = route.readsHeight ? queryHeight(query.get("height")) : 0;
      const scope: Scope = { path, query: queryValues, deps };
      const { result, height: answered } = await answerQuery(handler, { scope, query, height, aminoWrap: route.aminoWrap }, deps);
      if (result === undefined || result === null) throw new LegacyError(404, "no result", "empty");
      return { result, height: answered };
    }
    case "generate":
      return { result: await generateTx(handler, await body(ctx, deps), path, deps), height: 0 };
    case "broadcast-std-tx":
      return { result: await broadcastStdTx(handler, await body(ctx, deps), deps), height: 0 };
    case "encode-std-tx":
      return { result: await encodeStdTx(await body(ctx, deps), deps), height: 0 };
    case "decode-tx":
      return { result: decodeTx(await body(ctx, deps), deps), height: 0 };
    case "search-txs":
      return { result: await searchTxs(handler, query, deps), height: 0 };
    case "search-txs-each":
      return { result: await searchTxsEach(handler, path, query, deps), height: 0 };
    case "answer":
      throw new LegacyError(handler.status, fillText(handler.error, values));
  }
}

function applies(when: When, path: Record<string, string>, query: URLSearchParams): boolean {
  if (when.query !== undefined) return (query.get(when.query) ?? "") !== "";
  return [...(when.path ?? [])].every(([name, pattern]) => pattern.test(path[name] ?? ""));
}

/** The JSON body (413 beyond api.rpc-max-body-bytes, 400 when malformed: the legacy texts). */
async function body(ctx: Context, deps: LegacyDeps): Promise<unknown> {
  try {
    return await readJsonBody(ctx, deps.maxBodyBytes);
  } catch (err) {
    if (err instanceof GatewayError && err.httpStatus !== 413) throw new LegacyError(400, `failed to decode JSON payload: ${err.message}`, "bad-tx");
    throw err;
  }
}

function write(ctx: Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.res.setHeader("Content-Type", JSON_CONTENT_TYPE);
  ctx.body = goJson(body);
}
