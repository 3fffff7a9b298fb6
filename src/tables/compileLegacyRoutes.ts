import type protobuf from "protobufjs";
import { entryPrefix, loadYamlTable, TableError, type EntrySource } from "./loadYamlTable.js";
import type { AminoTransforms } from "./aminoTransforms.js";
import type { ErrorRule, LegacyRouteSpec, LegacyVerb } from "./legacyRouteSpec.js";
import type { PathSegment } from "./routeSpec.js";
import { findOverlap } from "./routeOverlap.js";
import legacySchema from "./schemas/legacy-routes.schema.json" with { type: "json" };
import { LegacyEntryContext, type RawEntry } from "./legacyEntryContext.js";
import { callsHandlers, methodHandlers } from "./legacyQueryHandlers.js";
import { actionHandlers, answerHandlers, generateHandlers } from "./legacyTxHandlers.js";

const VERBS: LegacyVerb[] = ["get", "post", "put"];
const label = (e: Record<string, unknown>) => {
  const verb = VERBS.find((v) => typeof e[v] === "string");
  return verb ? `${verb} ${e[verb] as string}` : "no verb";
};

/** Loads legacy-routes.yaml, validates it against its JSON Schema, and compiles every entry against the proto tree and the amino names. */
export function loadLegacyRoutes(file: string, root: protobuf.Root, transforms: AminoTransforms): LegacyRouteSpec[] {
  const routes = loadYamlTable<RawEntry>(file, legacySchema, label, VERBS).map(({ entry, source }) => compileLegacyRoute(entry, source, root, transforms));
  const overlap = findOverlap(routes);
  if (overlap) {
    const [a, b, example] = overlap;
    throw new TableError(
      `${entryPrefix(a.source)} and entry ${b.source.index + 1} (${b.source.label}) can match the same path (e.g. ${example}); ` +
        `tell them apart with "reject" on a path variable`,
    );
  }
  return routes;
}

/** The ways an entry answers; it has exactly one. */
const WAYS = ["method", "calls", "generate", "action", "answer"] as const;
/** The keys each way takes (beyond the verb, the docs, path/query parameters, errors and envelope). */
const WAY_KEYS: Record<(typeof WAYS)[number], string[]> = {
  method: ["request", "result", "paging", "variants", "query", "height", "fallback"],
  calls: ["result", "query", "height"],
  generate: [],
  action: ["modes", "conditions", "paging", "each"],
  answer: [],
};
const WAY_SPECIFIC_KEYS = ["request", "result", "paging", "variants", "query", "height", "modes", "conditions", "fallback", "each"] as const;

function compileLegacyRoute(entry: RawEntry, source: EntrySource, root: protobuf.Root, transforms: AminoTransforms): LegacyRouteSpec {
  const verb = VERBS.find((v) => entry[v] !== undefined)!;
  const path = entry[verb]!;
  const variables: string[] = [];
  const ctx = new LegacyEntryContext(entry, source, root, transforms, variables);
  const way = wayOf(ctx, verb);
  const segments = pathSegments(ctx, verb, path);
  for (const name of Object.keys(entry.path ?? {})) if (!variables.includes(name)) ctx.fail(`path.${name}`, `the path has no variable {${name}}`);
  const pathParams = new Map(variables.map((name) => [name, ctx.param(name, "path", entry.path?.[name])]));

  const compiled =
    way === "method"
      ? methodHandlers(ctx)
      : way === "calls"
        ? callsHandlers(ctx)
        : way === "generate"
          ? generateHandlers(ctx)
          : way === "action"
            ? actionHandlers(ctx, verb)
            : answerHandlers(ctx);
  const errors = (entry.errors ?? []).map((raw, i): ErrorRule => {
    if (raw.status === undefined && raw.error === undefined && raw.result === undefined) ctx.fail(`errors[${i}]`, "a rule needs status, error or result");
    if (raw.result !== undefined && raw.status !== undefined) ctx.fail(`errors[${i}].result`, "a rule answers either a result (200) or a status");
    return {
      when: raw.when,
      match: raw.match ? ctx.regex(`.*(?:${raw.match}).*`, `errors[${i}].match`) : undefined,
      status: raw.status,
      error: raw.error,
      result: raw.result !== undefined ? { value: raw.result } : undefined,
    };
  });

  const calls = way === "method" || way === "calls";
  if (entry.height !== undefined && !calls) ctx.fail("height", "only routes that call methods read ?height");
  const firstSegment = segments[0] && "literal" in segments[0] ? segments[0].literal : "legacy";
  return {
    verb,
    path,
    segments,
    variables,
    params: { path: pathParams, query: compiled.query },
    handlers: compiled.handlers,
    readsHeight: calls && entry.height !== false,
    envelope: entry.envelope,
    aminoWrap: entry.amino_wrap !== false,
    deprecationHeaders: entry.deprecation_headers !== false,
    errors,
    tag: entry.tag ?? `legacy.${firstSegment}`,
    summary: entry.summary ?? summaryOf(entry),
    why: entry.why,
    source,
  };
}

/** The one way the entry answers, checked against its verb and the keys it has. */
function wayOf(ctx: LegacyEntryContext, verb: LegacyVerb): (typeof WAYS)[number] {
  const { entry } = ctx;
  const ways = WAYS.filter((k) => entry[k] !== undefined);
  if (ways.length !== 1)
    ctx.fail(undefined, `an entry needs exactly one of method, calls, generate, action, answer${ways.length ? ` (it has ${ways.join(", ")})` : ""}`);
  const way = ways[0]!;
  if (verb === "get" && way === "generate") ctx.fail("generate", "only POST and PUT routes build transactions");
  if (verb !== "get" && (way === "method" || way === "calls")) ctx.fail(way, "a POST or PUT route builds a transaction (generate) or is a transaction action");
  for (const key of WAY_SPECIFIC_KEYS) {
    if (entry[key] !== undefined && !WAY_KEYS[way].includes(key))
      ctx.fail(key, `does not apply to ${way === "action" ? `action ${entry.action}` : `a ${way} entry`}`);
  }
  return way;
}

/** The path's literal and variable segments (filling ctx.variables); a variable named twice fails. */
function pathSegments(ctx: LegacyEntryContext, verb: LegacyVerb, path: string): PathSegment[] {
  return path
    .split("/")
    .slice(1)
    .map((part): PathSegment => {
      const variable = /^\{(.+)\}$/.exec(part)?.[1];
      if (!variable) return { literal: part };
      if (ctx.variables.includes(variable)) ctx.fail(verb, `path variable {${variable}} appears twice`);
      ctx.variables.push(variable);
      const reject = ctx.entry.path?.[variable]?.reject;
      return { variable, reject: reject ? ctx.regex(reject, `path.${variable}.reject`) : undefined };
    });
}

function summaryOf(entry: RawEntry): string {
  const method = entry.method ?? entry.variants?.[0]?.method;
  if (method)
    return `Legacy ${method
      .split("/")[1]!
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()}`;
  if (entry.generate) return `Generate an unsigned ${entry.generate.msgs.map((m) => m.type.split("/").at(-1)).join(" + ")} transaction`;
  if (entry.action) return `Legacy ${entry.action.replaceAll("-", " ")}`;
  if (entry.calls) return `Legacy ${Object.keys(entry.calls).join(" and ")}`;
  return "Refused path";
}
