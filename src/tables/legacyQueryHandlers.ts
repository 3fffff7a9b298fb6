import type { Call, LegacyRouteSpec, ParamSpec, When } from "./legacyRouteSpec.js";
import type { LegacyEntryContext } from "./legacyEntryContext.js";

/** The handlers of a route and every query parameter any of them reads. */
export interface CompiledHandlers {
  handlers: LegacyRouteSpec["handlers"];
  query: Map<string, ParamSpec>;
}

/** `method:` — one method call, with its `variants` (tried first, by `when`) and its search `fallback`. */
export function methodHandlers(ctx: LegacyEntryContext): CompiledHandlers {
  const { entry } = ctx;
  const handlers: LegacyRouteSpec["handlers"] = [];
  const allQuery = new Map<string, ParamSpec>();
  for (const [i, variant] of (entry.variants ?? []).entries()) {
    const key = `variants[${i}]`;
    const built = ctx.queryHandler(variant.method, variant.request, variant.result, variant.paging, `${key}.method`);
    const query = ctx.queryParams(variant.query, built.referenced);
    const when: When = {};
    if (variant.when.query) {
      when.query = variant.when.query;
      if (!query.has(when.query)) query.set(when.query, ctx.param(when.query, "query", undefined));
    }
    if (variant.when.path) {
      when.path = new Map(
        Object.entries(variant.when.path).map(([name, text]) => {
          if (!ctx.variables.includes(name)) ctx.fail(`${key}.when.path.${name}`, `the path has no variable {${name}}`);
          return [name, ctx.regex(text, `${key}.when.path.${name}`)];
        }),
      );
    }
    handlers.push({ when, handler: built.handler, query });
    for (const [name, spec] of query) allQuery.set(name, spec);
  }
  const built = ctx.queryHandler(entry.method!, entry.request, entry.result, entry.paging, "method");
  if (entry.fallback) {
    built.handler.fallback = {
      search: ctx.searchCall("fallback", entry.fallback.search, "fallback.search"),
      onError: entry.fallback.on_error === undefined ? undefined : ctx.regex(`.*(?:${entry.fallback.on_error}).*`, "fallback.on_error"),
    };
  }
  const query = ctx.queryParams(entry.query, built.referenced);
  handlers.push({ handler: built.handler, query });
  for (const [name, spec] of query) if (!allQuery.has(name)) allQuery.set(name, spec);
  return { handlers, query: allQuery };
}

/** `calls:` — named method calls and searches, answered through an object template over `$calls`. */
export function callsHandlers(ctx: LegacyEntryContext): CompiledHandlers {
  const { entry } = ctx;
  const names = Object.keys(entry.calls!);
  const scope = ctx.scope(["path", "query"]);
  const calls: Call[] = Object.entries(entry.calls!).map(([name, raw]): Call => {
    if (raw.method) return ctx.methodCall(name, raw.method, raw.request, `calls.${name}.method`, scope);
    if (raw.request) ctx.fail(`calls.${name}.request`, "a search takes no request");
    return ctx.searchCall(name, raw.search!, `calls.${name}.search`);
  });
  if (entry.result === undefined || typeof entry.result === "string") ctx.fail("result", "a calls entry answers an object template over $calls");
  const resultScope = ctx.scope(["path", "query", "calls"], names);
  const result = ctx.template(entry.result, resultScope, "result");
  const query = ctx.queryParams(entry.query, new Set([...scope.queryNames, ...resultScope.queryNames]));
  return { handlers: [{ handler: { kind: "query", calls, result: { kind: "template", template: result } }, query }], query };
}
