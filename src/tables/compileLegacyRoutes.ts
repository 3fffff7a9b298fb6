import protobuf from "protobufjs";
import { entryPrefix, loadYamlTable, TableError, type EntrySource } from "./loadYamlTable.js";
import type { AminoTransforms } from "./aminoTransforms.js";
import type {
  Call,
  CheckSpec,
  ErrorRule,
  Handler,
  LegacyRouteSpec,
  LegacyVerb,
  MethodCall,
  MsgSpec,
  Paging,
  ParamSpec,
  QueryHandler,
  SearchCall,
  RequestBinding,
  ResultSpec,
  When,
} from "./legacyRouteSpec.js";
import { compileTemplate, TemplateError, type Source, type TemplateScope } from "./legacyTemplates.js";
import type { PathSegment } from "./routeSpec.js";
import { findOverlap } from "./routeOverlap.js";
import legacySchema from "./schemas/legacy-routes.schema.json" with { type: "json" };
import type { LegacyRoutesTable, Param, Search } from "./schemaTypes/legacyRoutesTable.js";

type Json = Record<string, unknown>;

/** One entry of legacy-routes.yaml and its parts, as the JSON Schema describes them. */
type RawEntry = LegacyRoutesTable[number];
type RawParam = Param;
type RawSearch = Search;

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

export function compileLegacyRoute(entry: RawEntry, source: EntrySource, root: protobuf.Root, transforms: AminoTransforms): LegacyRouteSpec {
  const fail = (key: string | undefined, message: string): never => {
    throw new TableError(key ? `${entryPrefix(source, key)}: ${message}` : `${entryPrefix(source)}: ${message}`);
  };
  const verb = VERBS.find((v) => entry[v] !== undefined)!;
  const path = entry[verb]!;
  const ways = (["method", "calls", "generate", "action", "answer"] as const).filter((k) => entry[k] !== undefined);
  if (ways.length !== 1) fail(undefined, `an entry needs exactly one of method, calls, generate, action, answer${ways.length ? ` (it has ${ways.join(", ")})` : ""}`);
  const way = ways[0]!;
  if (verb === "get" && way === "generate") fail("generate", "only POST and PUT routes build transactions");
  if (verb !== "get" && (way === "method" || way === "calls")) fail(way, "a POST or PUT route builds a transaction (generate) or is a transaction action");
  const allowedKeys: Record<typeof way, string[]> = {
    method: ["request", "result", "paging", "variants", "query", "height", "fallback"],
    calls: ["result", "query", "height"],
    generate: [],
    action: ["modes", "conditions", "paging", "each"],
    answer: [],
  };
  for (const key of ["request", "result", "paging", "variants", "query", "height", "modes", "conditions", "fallback", "each"] as const) {
    if (entry[key] !== undefined && !allowedKeys[way].includes(key)) fail(key, `does not apply to ${way === "action" ? `action ${entry.action}` : `a ${way} entry`}`);
  }

  // path variables and their checks
  const variables: string[] = [];
  const segments = path.split("/").slice(1).map((part): PathSegment => {
    const variable = /^\{(.+)\}$/.exec(part)?.[1];
    if (!variable) return { literal: part };
    if (variables.includes(variable)) fail(verb, `path variable {${variable}} appears twice`);
    variables.push(variable);
    const reject = entry.path?.[variable]?.reject;
    return { variable, reject: reject ? regex(reject, `path.${variable}.reject`) : undefined };
  });
  for (const name of Object.keys(entry.path ?? {})) if (!variables.includes(name)) fail(`path.${name}`, `the path has no variable {${name}}`);
  const pathParams = new Map(variables.map((name) => [name, param(name, "path", entry.path?.[name])]));

  function regex(text: string, key: string): RegExp {
    try {
      return new RegExp(`^(?:${text})$`);
    } catch (err) {
      return fail(key, `not a regular expression: ${(err as Error).message}`);
    }
  }

  function param(name: string, where: "path" | "query", raw: RawParam | undefined): ParamSpec {
    if (raw?.reject && where === "query") fail(`query.${name}.reject`, "only path variables take reject");
    return {
      name,
      in: where,
      required: where === "path" || raw?.required === true,
      description: raw?.description,
      default: raw?.default,
      upper: raw?.upper === true,
      format: raw?.format,
      error: raw?.error,
      refuse: raw?.refuse ? { match: regex(raw.refuse.match, `${where}.${name}.refuse.match`), error: raw.refuse.error } : undefined,
    };
  }

  const scope = (sources: Source[], calls: Iterable<string> = []): TemplateScope => ({
    sources: new Set(sources),
    pathVariables: new Set(variables),
    calls: new Set(calls),
    queryNames: new Set(),
    bodyFields: new Set(),
  });
  const template = (value: unknown, s: TemplateScope, key: string) => {
    try {
      return compileTemplate(value, s, key);
    } catch (err) {
      if (err instanceof TemplateError) return fail(err.where, err.message);
      throw err;
    }
  };

  function methodCall(name: string, methodName: string, request: Json | undefined, key: string, s: TemplateScope): MethodCall {
    const method = resolveMethod(methodName, key);
    const requestType = method.resolvedRequestType!;
    const bindings: RequestBinding[] = Object.entries(request ?? {}).map(([fieldPath, value]) => ({
      fieldPath: resolveFields(requestType, fieldPath, `${key.replace(/method$/, "request")}.${fieldPath}`),
      template: template(value, s, `${key.replace(/method$/, "request")}.${fieldPath}`),
    }));
    return { kind: "method", name, methodPath: `/${methodName}`, requestType, responseType: method.resolvedResponseType!, request: bindings };
  }

  function resolveMethod(name: string, key: string): protobuf.Method {
    const [serviceName, methodName] = name.split("/") as [string, string];
    const service = root.lookup(serviceName);
    if (!(service instanceof protobuf.Service)) return fail(key, `service ${serviceName} does not exist in proto/`);
    const method = service.methods[methodName];
    if (!method) return fail(key, `${serviceName} has no method ${methodName} (it has: ${Object.keys(service.methods).join(", ")})`);
    method.resolve();
    return method;
  }

  function resolveFields(type: protobuf.Type, dotted: string, key: string): protobuf.Field[] {
    const fields: protobuf.Field[] = [];
    let current: protobuf.Type | null = type;
    for (const name of dotted.split(".")) {
      const field: protobuf.Field | undefined = current?.fields[name];
      if (!field) return fail(key, `${name} is not a field of ${current?.fullName.slice(1) ?? "a scalar"} (its fields: ${current?.fieldsArray.map((f) => f.name).join(", ") || "none"})`);
      fields.push(field);
      current = field.resolvedType instanceof protobuf.Type ? field.resolvedType : null;
    }
    return fields;
  }

  function searchCall(name: string, raw: RawSearch, key: string): SearchCall {
    const type = (typeName: string, at: string) => {
      const found = root.lookup(typeName);
      return found instanceof protobuf.Type ? found : fail(at, `${typeName} is not a message type of proto/`);
    };
    const msgType = type(raw.msg, `${key}.msg`);
    const as = raw.as === undefined ? undefined : type(raw.as, `${key}.as`);
    for (const field of Object.keys(raw.match ?? {})) if (!msgType.fields[field]) fail(`${key}.match.${field}`, `${field} is not a field of ${raw.msg}`);
    for (const field of msgType.fieldsArray) {
      if (as && as.fields[field.name]?.id !== field.id) fail(`${key}.as`, `${raw.as} does not have ${raw.msg}'s field ${field.name} = ${field.id}`);
    }
    return { kind: "search", name, events: raw.events, msgType, limit: raw.limit ?? 30, match: new Map(Object.entries(raw.match ?? {})), as, all: raw.all === true };
  }

  function paging(raw: RawEntry["paging"], call: MethodCall | undefined, key: string): Paging | undefined {
    if (!raw) return undefined;
    const of = raw.of ?? "request";
    if (of === "request" && call && !call.requestType.fields.pagination) fail(key, `${call.requestType.fullName.slice(1)} has no pagination; page the result instead (of: result)`);
    return { defaultLimit: raw.default_limit ?? 30, of };
  }

  const queryParams = (raw: Record<string, RawParam> | undefined, referenced: Set<string>): Map<string, ParamSpec> => {
    const out = new Map<string, ParamSpec>();
    for (const [name, spec] of Object.entries(raw ?? {})) out.set(name, param(name, "query", spec));
    for (const name of referenced) if (!out.has(name)) out.set(name, param(name, "query", undefined));
    return out;
  };

  function queryHandler(method: string, request: Json | undefined, result: string | Json | undefined, rawPaging: RawEntry["paging"], key: string): { handler: QueryHandler; referenced: Set<string> } {
    const s = scope(["path", "query"]);
    const call = methodCall("response", method, request, key, s);
    let spec: ResultSpec = { kind: "whole", call };
    if (typeof result === "string") spec = { kind: "field", call, path: resolveFields(call.responseType, result, key.replace(/method$/, "result")) };
    else if (result !== undefined) fail(key.replace(/method$/, "result"), "an object result needs calls");
    return { handler: { kind: "query", calls: [call], result: spec, paging: paging(rawPaging, call, key.replace(/method$/, "paging")) }, referenced: s.queryNames };
  }

  const handlers: LegacyRouteSpec["handlers"] = [];
  const allQuery = new Map<string, ParamSpec>();
  let handler: Handler;
  switch (way) {
    case "method": {
      for (const [i, variant] of (entry.variants ?? []).entries()) {
        const key = `variants[${i}]`;
        const built = queryHandler(variant.method, variant.request, variant.result, variant.paging, `${key}.method`);
        const query = queryParams(variant.query, built.referenced);
        const when: When = {};
        if (variant.when.query) {
          when.query = variant.when.query;
          if (!query.has(when.query)) query.set(when.query, param(when.query, "query", undefined));
        }
        if (variant.when.path) {
          when.path = new Map(Object.entries(variant.when.path).map(([name, text]) => {
            if (!variables.includes(name)) fail(`${key}.when.path.${name}`, `the path has no variable {${name}}`);
            return [name, regex(text, `${key}.when.path.${name}`)];
          }));
        }
        handlers.push({ when, handler: built.handler, query });
        for (const [name, spec] of query) allQuery.set(name, spec);
      }
      const built = queryHandler(entry.method!, entry.request, entry.result, entry.paging, "method");
      if (entry.fallback) {
        built.handler.fallback = {
          search: searchCall("fallback", entry.fallback.search, "fallback.search"),
          onError: entry.fallback.on_error === undefined ? undefined : regex(`.*(?:${entry.fallback.on_error}).*`, "fallback.on_error"),
        };
      }
      handler = built.handler;
      const query = queryParams(entry.query, built.referenced);
      handlers.push({ handler, query });
      for (const [name, spec] of query) if (!allQuery.has(name)) allQuery.set(name, spec);
      break;
    }
    case "calls": {
      const names = Object.keys(entry.calls!);
      const s = scope(["path", "query"]);
      const calls: Call[] = Object.entries(entry.calls!).map(([name, raw]): Call => {
        if (raw.method) return methodCall(name, raw.method, raw.request, `calls.${name}.method`, s);
        if (raw.request) fail(`calls.${name}.request`, "a search takes no request");
        return searchCall(name, raw.search!, `calls.${name}.search`);
      });
      if (entry.result === undefined || typeof entry.result === "string") fail("result", "a calls entry answers an object template over $calls");
      const resultScope = scope(["path", "query", "calls"], names);
      const result = template(entry.result, resultScope, "result");
      handler = { kind: "query", calls, result: { kind: "template", template: result } };
      const query = queryParams(entry.query, new Set([...s.queryNames, ...resultScope.queryNames]));
      handlers.push({ handler, query });
      for (const [name, spec] of query) allQuery.set(name, spec);
      break;
    }
    case "generate": {
      const msgs = entry.generate!.msgs.map((raw, i): MsgSpec => {
        const key = `generate.msgs[${i}]`;
        const protoName = transforms.typesByName.get(raw.type);
        if (!protoName) return fail(`${key}.type`, `${raw.type} is not an amino name of amino-transforms.yaml`);
        const protoType = root.lookupType(protoName);
        let forEach: MsgSpec["forEach"];
        if (raw.for_each) {
          const call = methodCall("items", raw.for_each.method, raw.for_each.request, `${key}.for_each.method`, scope(["path", "body", "base_req"]));
          forEach = { call, items: resolveFields(call.responseType, raw.for_each.items, `${key}.for_each.items`) };
        }
        const sources: Source[] = forEach ? ["path", "body", "base_req", "item"] : ["path", "body", "base_req"];
        return { aminoType: raw.type, protoType, value: template(raw.value, scope(sources), `${key}.value`), forEach };
      });
      const checks = (entry.generate!.checks ?? []).map((raw, i): CheckSpec => {
        const key = `generate.checks[${i}]`;
        const s = scope(["path", "body", "base_req"]);
        if (raw.same_address) return { kind: "same_address", a: template(raw.same_address[0], s, `${key}.same_address[0]`), b: template(raw.same_address[1], s, `${key}.same_address[1]`), status: raw.status, error: raw.error };
        return { kind: "matches", value: template(raw.matches![0], s, `${key}.matches[0]`), pattern: regex(raw.matches![1]!, `${key}.matches[1]`), status: raw.status, error: raw.error };
      });
      handler = { kind: "generate", msgs, checks };
      handlers.push({ handler, query: new Map() });
      break;
    }
    case "action": {
      const action = entry.action!;
      if (entry.modes && action !== "broadcast-std-tx") fail("modes", "only broadcast-std-tx takes modes");
      if (entry.conditions && action !== "search-txs") fail("conditions", "only search-txs takes conditions");
      if (entry.paging && action !== "search-txs") fail("paging", `does not apply to action ${action}`);
      if ((entry.each !== undefined) !== (action === "search-txs-each")) fail(entry.each ? "each" : undefined, entry.each ? "only search-txs-each takes each" : "search-txs-each needs each");
      let query = new Map<string, ParamSpec>();
      if (action === "broadcast-std-tx") {
        if (!entry.modes) fail(undefined, "broadcast-std-tx needs modes");
        handler = { kind: action, modes: new Map(Object.entries(entry.modes!)) };
      } else if (action === "search-txs") {
        if (!entry.conditions?.["*"]) fail("conditions", 'search-txs needs a "*" condition for the other parameters');
        handler = { kind: action, conditions: new Map(Object.entries(entry.conditions!)), paging: { defaultLimit: entry.paging?.default_limit ?? 30, of: "request" } };
      } else if (action === "search-txs-each") {
        const each = entry.each!;
        const searches = Object.entries(each.searches).map(([name, events]) => {
          for (const [i, event] of events.entries()) {
            for (const [, variable] of event.matchAll(/\{path\.([^}]+)\}/g)) if (!variables.includes(variable!)) fail(`each.searches.${name}[${i}]`, `the path has no variable {${variable}}`);
          }
          return { name, events };
        });
        handler = { kind: action, searches, select: each.select, otherwise: each.otherwise, limit: each.limit ?? 30 };
        const names = searches.map((s) => s.name);
        query = queryParams({ [each.select]: { description: `${names.join(", ")} (words separated by spaces: the first of them named); absent: all of them` } }, new Set());
      } else {
        handler = { kind: action };
      }
      const isGet = action === "search-txs" || action === "search-txs-each";
      if (isGet !== (verb === "get")) fail(verb, `action ${action} is a ${isGet ? "GET" : "POST"} route`);
      handlers.push({ handler, query });
      for (const [name, spec] of query) allQuery.set(name, spec);
      break;
    }
    case "answer":
      handler = { kind: "answer", status: entry.answer!.status, error: entry.answer!.error };
      handlers.push({ handler, query: new Map() });
      break;
  }

  const errors = (entry.errors ?? []).map((raw, i): ErrorRule => {
    if (raw.status === undefined && raw.error === undefined && raw.result === undefined) fail(`errors[${i}]`, "a rule needs status, error or result");
    if (raw.result !== undefined && raw.status !== undefined) fail(`errors[${i}].result`, "a rule answers either a result (200) or a status");
    return { when: raw.when, match: raw.match ? regex(`.*(?:${raw.match}).*`, `errors[${i}].match`) : undefined, status: raw.status, error: raw.error, result: raw.result !== undefined ? { value: raw.result } : undefined };
  });

  const calls = way === "method" || way === "calls";
  if (entry.height !== undefined && !calls) fail("height", "only routes that call methods read ?height");
  const firstSegment = segments[0] && "literal" in segments[0] ? segments[0].literal : "legacy";
  return {
    verb,
    path,
    segments,
    variables,
    params: { path: pathParams, query: allQuery },
    handlers,
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

function summaryOf(entry: RawEntry): string {
  const method = entry.method ?? entry.variants?.[0]?.method;
  if (method) return `Legacy ${method.split("/")[1]!.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()}`;
  if (entry.generate) return `Generate an unsigned ${entry.generate.msgs.map((m) => m.type.split("/").at(-1)).join(" + ")} transaction`;
  if (entry.action) return `Legacy ${entry.action.replaceAll("-", " ")}`;
  if (entry.calls) return `Legacy ${Object.keys(entry.calls).join(" and ")}`;
  return "Refused path";
}
