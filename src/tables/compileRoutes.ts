import protobuf from "protobufjs";
import { entryPrefix, loadYamlTable, TableError, type EntrySource } from "./loadYamlTable.js";
import type { PathBinding, PathSegment, RouteSpec, Verb } from "./routeSpec.js";
import { findOverlap } from "./routeOverlap.js";
import { anchoredPattern, fieldNames, lookupFieldPath, lookupMethod, MissingFieldError, ProtoLookupError } from "./protoLookup.js";
import routesSchema from "./schemas/routes.schema.json" with { type: "json" };
import type { RoutesTable } from "./schemaTypes/routesTable.js";

/** One entry of routes.yaml, as its JSON Schema describes it. */
type RouteEntry = RoutesTable[number];

const label = (e: Record<string, unknown>) => (typeof e.get === "string" ? `get ${e.get}` : typeof e.post === "string" ? `post ${e.post}` : "no verb");

/** Loads routes.yaml, validates it, and compiles every entry against the proto tree. */
export function loadRoutes(file: string, root: protobuf.Root): RouteSpec[] {
  const routes = loadYamlTable<RouteEntry>(file, routesSchema, label).map(({ entry, source }) => compileRoute(entry, source, root));
  const overlap = findOverlap(routes);
  if (overlap) {
    const [a, b, example] = overlap;
    throw new TableError(
      `${entryPrefix(a.source)} and entry ${b.source.index + 1} (${b.source.label}) can match the same path (e.g. ${example}); ` +
        `tell them apart with "match" or "reject" patterns on a path variable`,
    );
  }
  return routes;
}

export function compileRoute(entry: RouteEntry, source: EntrySource, root: protobuf.Root): RouteSpec {
  const verb: Verb = entry.get !== undefined ? "get" : "post";
  const path = (entry.get ?? entry.post)!;
  const method = resolveMethod(entry.method, source, root);
  const requestType = method.resolvedRequestType!;
  const segments = compileSegments(path, entry, source);
  const pathBindings = segments.flatMap((s): PathBinding[] =>
    "variable" in s ? [{ variable: s.variable, fieldPath: resolveFieldPath(requestType, s.variable, source, verb) }] : [],
  );
  if (entry.body && verb !== "post") throw new TableError(`${entryPrefix(source, "body")}: only POST routes take a body`);
  return {
    verb,
    path,
    segments,
    methodPath: `/${entry.method}`,
    method,
    requestType,
    responseType: method.resolvedResponseType!,
    pathBindings,
    body: entry.body === "*",
    tag: entry.tag ?? defaultTag(entry.method),
    why: entry.why,
    since: entry.since,
    derived: entry.derived,
    source,
  };
}

function resolveMethod(name: string, source: EntrySource, root: protobuf.Root): protobuf.Method {
  try {
    return lookupMethod(root, name);
  } catch (err) {
    if (err instanceof ProtoLookupError) throw new TableError(`${entryPrefix(source, "method")}: ${err.message}`);
    throw err;
  }
}

function compileSegments(path: string, entry: RouteEntry, source: EntrySource): PathSegment[] {
  const variables = new Set<string>();
  const segments = path
    .split("/")
    .slice(1)
    .map((part): PathSegment => {
      const variable = /^\{(.+)\}$/.exec(part)?.[1];
      if (!variable) return { literal: part };
      if (variables.has(variable)) throw new TableError(`${entryPrefix(source, entry.get ? "get" : "post")}: path variable {${variable}} appears twice`);
      variables.add(variable);
      return { variable, match: pattern(entry.match, variable, source, "match"), reject: pattern(entry.reject, variable, source, "reject") };
    });
  for (const key of ["match", "reject"] as const) {
    for (const name of Object.keys(entry[key] ?? {})) {
      if (!variables.has(name)) throw new TableError(`${entryPrefix(source, `${key}.${name}`)}: the path has no variable {${name}}`);
    }
  }
  return segments;
}

function pattern(patterns: Record<string, string> | undefined, variable: string, source: EntrySource, key: string): RegExp | undefined {
  const text = patterns?.[variable];
  if (text === undefined) return undefined;
  try {
    return anchoredPattern(text);
  } catch (err) {
    if (err instanceof ProtoLookupError) throw new TableError(`${entryPrefix(source, `${key}.${variable}`)}: ${err.message}`);
    throw err;
  }
}

function resolveFieldPath(type: protobuf.Type, variable: string, source: EntrySource, verb: Verb): protobuf.Field[] {
  try {
    return lookupFieldPath(type, variable);
  } catch (err) {
    if (!(err instanceof MissingFieldError)) throw err;
    throw new TableError(
      `${entryPrefix(source, verb)}: path variable {${variable}} names no field of ${type.fullName.slice(1)} (its fields: ${fieldNames(err.owner)})`,
    );
  }
}

/** core.bank.v1beta1.Query/X → "bank"; extmod.token.Query/X → "token"; ibc.core.channel.v1.Query/X → "ibc.channel". */
function defaultTag(method: string): string {
  const parts = method
    .split("/")[0]!
    .split(".")
    .slice(0, -1)
    .filter((p) => !/^v\d+((alpha|beta)\d+)?$/.test(p));
  const [family, ...rest] = parts;
  if (family === "ibc") return ["ibc", ...rest.filter((p) => p !== "core" && p !== "applications")].join(".");
  return rest.join(".") || family!;
}
