/**
 * Templates of legacy-routes.yaml: the values a route puts into a request,
 * a Msg or a result. A string "$<source>.<name>..." is a reference, optionally
 * piped ("$path.validatorAddr | account"); "$$" starts a literal "$". Objects
 * and arrays are templates of their members; {$map, values, error} maps a
 * value through a table; {$each, value} builds a list from a list ($item);
 * {$first: [a, b]} is the first of its templates that has a value; {$join: [a, b]} the text of its
 * templates one after the other (no value when one has none).
 *
 * Pipes: account / validator (the address under the account or operator
 * prefix), json (the JSON text of the value), parse_json (the value of a JSON
 * text), upper, hex (hex text to base64 bytes), coins ("10uhub,5ucat" to
 * coins), unix_after (a Go duration such as "10m" to the unix time that long
 * from now).
 */

export type Source = "path" | "query" | "body" | "base_req" | "calls" | "item";
const PIPES = ["account", "validator", "json", "parse_json", "upper", "hex", "coins", "unix_after"] as const;
type Pipe = (typeof PIPES)[number];

export type Template =
  | { kind: "literal"; value: unknown }
  | { kind: "ref"; source: Source; path: string[]; pipes: Pipe[]; text: string }
  | { kind: "object"; fields: Array<[string, Template]> }
  | { kind: "array"; items: Template[] }
  | { kind: "map"; from: Template; values: Map<string, unknown>; error: string }
  | { kind: "each"; from: Template; value: Template }
  | { kind: "first"; options: Template[] }
  | { kind: "join"; parts: Template[] };

/** A template mistake; `where` is the key path inside the entry. */
export class TemplateError extends Error {
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(message);
  }
}

export interface TemplateScope {
  /** Sources allowed here. */
  sources: Set<Source>;
  /** Path variables of the route. */
  pathVariables: Set<string>;
  /** Declared calls. */
  calls: Set<string>;
  /** Query parameters referenced (collected). */
  queryNames: Set<string>;
  /** Body fields referenced at the top level (collected). */
  bodyFields: Set<string>;
}

const REF = /^\$([a-z_]+)((?:\.[A-Za-z0-9_-]+)*)\s*((?:\|\s*[a-z_]+\s*)*)$/;

export function compileTemplate(value: unknown, scope: TemplateScope, where: string, inEach = false): Template {
  if (typeof value === "string") return compileString(value, scope, where, inEach);
  if (Array.isArray(value)) return { kind: "array", items: value.map((v, i) => compileTemplate(v, scope, `${where}[${i}]`, inEach)) };
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if ("$map" in record) {
      const { $map, values, error, ...rest } = record;
      if (Object.keys(rest).length > 0) throw new TemplateError(where, `$map takes only values and error, not ${Object.keys(rest).join(", ")}`);
      if (!values || typeof values !== "object" || Array.isArray(values)) throw new TemplateError(`${where}.values`, "$map needs a values object");
      if (typeof error !== "string") throw new TemplateError(`${where}.error`, "$map needs an error message");
      return { kind: "map", from: compileTemplate($map, scope, `${where}.$map`, inEach), values: new Map(Object.entries(values)), error };
    }
    if ("$each" in record) {
      const { $each, value: item, ...rest } = record;
      if (Object.keys(rest).length > 0) throw new TemplateError(where, `$each takes only value, not ${Object.keys(rest).join(", ")}`);
      const itemScope = { ...scope, sources: new Set([...scope.sources, "item" as const]) };
      return { kind: "each", from: compileTemplate($each, scope, `${where}.$each`, inEach), value: compileTemplate(item, itemScope, `${where}.value`, true) };
    }
    if ("$first" in record) {
      const { $first, ...rest } = record;
      if (Object.keys(rest).length > 0 || !Array.isArray($first) || $first.length < 2)
        throw new TemplateError(where, "$first takes a list of two or more templates and nothing else");
      return { kind: "first", options: $first.map((t, i) => compileTemplate(t, scope, `${where}.$first[${i}]`, inEach)) };
    }
    if ("$join" in record) {
      const { $join, ...rest } = record;
      if (Object.keys(rest).length > 0 || !Array.isArray($join) || $join.length < 2)
        throw new TemplateError(where, "$join takes a list of two or more templates and nothing else");
      return { kind: "join", parts: $join.map((t, i) => compileTemplate(t, scope, `${where}.$join[${i}]`, inEach)) };
    }
    return { kind: "object", fields: Object.entries(record).map(([k, v]) => [k, compileTemplate(v, scope, `${where}.${k}`, inEach)]) };
  }
  return { kind: "literal", value };
}

function compileString(text: string, scope: TemplateScope, where: string, inEach: boolean): Template {
  if (text.startsWith("$$")) return { kind: "literal", value: text.slice(1) };
  if (!text.startsWith("$")) return { kind: "literal", value: text };
  const match = REF.exec(text.trim());
  if (!match) throw new TemplateError(where, `"${text}" is not a reference ($source.name | pipe)`);
  const source = match[1] as Source;
  const path = match[2]!.split(".").slice(1);
  const pipes = match[3]!
    .split("|")
    .map((p) => p.trim())
    .filter(Boolean);
  const allowed = inEach ? new Set([...scope.sources, "item" as const]) : scope.sources;
  if (!allowed.has(source)) throw new TemplateError(where, `$${source} cannot be used here (allowed: ${[...allowed].map((s) => `$${s}`).join(", ")})`);
  for (const pipe of pipes)
    if (!(PIPES as readonly string[]).includes(pipe)) throw new TemplateError(where, `unknown pipe "${pipe}" (known: ${PIPES.join(", ")})`);
  if (source !== "item" && path.length === 0) throw new TemplateError(where, `$${source} needs a name: $${source}.<name>`);
  if (source === "path" && !scope.pathVariables.has(path[0]!)) {
    throw new TemplateError(where, `the path has no variable {${path[0]}} (it has: ${[...scope.pathVariables].map((v) => `{${v}}`).join(", ") || "none"})`);
  }
  if (source === "calls" && !scope.calls.has(path[0]!))
    throw new TemplateError(where, `no call is named ${path[0]} (calls: ${[...scope.calls].join(", ") || "none"})`);
  if (source === "query") scope.queryNames.add(path.join("."));
  if (source === "body") scope.bodyFields.add(path[0]!);
  return { kind: "ref", source, path: source === "query" ? [path.join(".")] : path, pipes: pipes as Pipe[], text };
}

/** Replaces {value}, {VALUE}, {message}, {key}, {path.x}, {query.x} in a message or condition text. */
export function fillText(text: string, values: Record<string, string | undefined>): string {
  return text.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => values[name] ?? whole);
}
