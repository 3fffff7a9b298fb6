import protobuf from "protobufjs";
import { entryPrefix, TableError, type EntrySource } from "./loadYamlTable.js";
import type { AminoTransforms } from "./aminoTransforms.js";
import type { MethodCall, Paging, ParamSpec, QueryHandler, RequestBinding, ResultSpec, SearchCall } from "./legacyRouteSpec.js";
import { compileTemplate, TemplateError, type Source, type TemplateScope } from "./legacyTemplates.js";
import { anchoredPattern, lookupFieldPath, lookupMethod, ProtoLookupError } from "./protoLookup.js";
import type { LegacyRoutesTable, Param, Search } from "./schemaTypes/legacyRoutesTable.js";

export type Json = Record<string, unknown>;
/** One entry of legacy-routes.yaml, as its JSON Schema describes it. */
export type RawEntry = LegacyRoutesTable[number];

/**
 * What compiling one legacy entry needs throughout: the entry, where it came from, the
 * proto tree and amino names, its path variables, and the checks that fail with the
 * entry and key named (`legacy-routes.yaml: entry 12 (get /bank/...): key "result": ...`).
 */
export class LegacyEntryContext {
  constructor(
    readonly entry: RawEntry,
    readonly source: EntrySource,
    readonly root: protobuf.Root,
    readonly transforms: AminoTransforms,
    /** The path's variables, in order. */
    readonly variables: string[],
  ) {}

  fail(key: string | undefined, message: string): never {
    throw new TableError(key ? `${entryPrefix(this.source, key)}: ${message}` : `${entryPrefix(this.source)}: ${message}`);
  }

  /** Runs a proto lookup, failing at `key` with its message. */
  lookup<T>(key: string, find: () => T): T {
    try {
      return find();
    } catch (err) {
      if (err instanceof ProtoLookupError) return this.fail(key, err.message);
      throw err;
    }
  }

  regex(text: string, key: string): RegExp {
    return this.lookup(key, () => anchoredPattern(text));
  }

  fieldPath(type: protobuf.Type, dotted: string, key: string): protobuf.Field[] {
    return this.lookup(key, () => lookupFieldPath(type, dotted));
  }

  messageType(typeName: string, key: string): protobuf.Type {
    const found = this.root.lookup(typeName);
    return found instanceof protobuf.Type ? found : this.fail(key, `${typeName} is not a message type of proto/`);
  }

  param(name: string, where: "path" | "query", raw: Param | undefined): ParamSpec {
    if (raw?.reject && where === "query") this.fail(`query.${name}.reject`, "only path variables take reject");
    return {
      name,
      in: where,
      required: where === "path" || raw?.required === true,
      description: raw?.description,
      default: raw?.default,
      upper: raw?.upper === true,
      format: raw?.format,
      error: raw?.error,
      refuse: raw?.refuse ? { match: this.regex(raw.refuse.match, `${where}.${name}.refuse.match`), error: raw.refuse.error } : undefined,
    };
  }

  /** The query parameters an entry declares, plus those its templates reference. */
  queryParams(raw: Record<string, Param> | undefined, referenced: Set<string>): Map<string, ParamSpec> {
    const out = new Map<string, ParamSpec>();
    for (const [name, spec] of Object.entries(raw ?? {})) out.set(name, this.param(name, "query", spec));
    for (const name of referenced) if (!out.has(name)) out.set(name, this.param(name, "query", undefined));
    return out;
  }

  scope(sources: Source[], calls: Iterable<string> = []): TemplateScope {
    return { sources: new Set(sources), pathVariables: new Set(this.variables), calls: new Set(calls), queryNames: new Set(), bodyFields: new Set() };
  }

  template(value: unknown, scope: TemplateScope, key: string) {
    try {
      return compileTemplate(value, scope, key);
    } catch (err) {
      if (err instanceof TemplateError) return this.fail(err.where, err.message);
      throw err;
    }
  }

  methodCall(name: string, methodName: string, request: Json | undefined, key: string, scope: TemplateScope): MethodCall {
    const method = this.lookup(key, () => lookupMethod(this.root, methodName));
    const requestType = method.resolvedRequestType!;
    const requestKey = key.replace(/method$/, "request");
    const bindings: RequestBinding[] = Object.entries(request ?? {}).map(([fieldPath, value]) => ({
      fieldPath: this.fieldPath(requestType, fieldPath, `${requestKey}.${fieldPath}`),
      template: this.template(value, scope, `${requestKey}.${fieldPath}`),
    }));
    return { kind: "method", name, methodPath: `/${methodName}`, requestType, responseType: method.resolvedResponseType!, request: bindings };
  }

  searchCall(name: string, raw: Search, key: string): SearchCall {
    const msgType = this.messageType(raw.msg, `${key}.msg`);
    const as = raw.as === undefined ? undefined : this.messageType(raw.as, `${key}.as`);
    for (const field of Object.keys(raw.match ?? {})) if (!msgType.fields[field]) this.fail(`${key}.match.${field}`, `${field} is not a field of ${raw.msg}`);
    for (const field of msgType.fieldsArray) {
      if (as && as.fields[field.name]?.id !== field.id) this.fail(`${key}.as`, `${raw.as} does not have ${raw.msg}'s field ${field.name} = ${field.id}`);
    }
    return {
      kind: "search",
      name,
      events: raw.events,
      msgType,
      limit: raw.limit ?? 30,
      match: new Map(Object.entries(raw.match ?? {})),
      as,
      all: raw.all === true,
    };
  }

  paging(raw: RawEntry["paging"], call: MethodCall | undefined, key: string): Paging | undefined {
    if (!raw) return undefined;
    const of = raw.of ?? "request";
    if (of === "request" && call && !call.requestType.fields.pagination)
      this.fail(key, `${call.requestType.fullName.slice(1)} has no pagination; page the result instead (of: result)`);
    return { defaultLimit: raw.default_limit ?? 30, of };
  }

  /** A route that calls one method and answers its response, or one field of it. */
  queryHandler(
    method: string,
    request: Json | undefined,
    result: string | Json | undefined,
    rawPaging: RawEntry["paging"],
    key: string,
  ): { handler: QueryHandler; referenced: Set<string> } {
    const scope = this.scope(["path", "query"]);
    const call = this.methodCall("response", method, request, key, scope);
    let spec: ResultSpec = { kind: "whole", call };
    if (typeof result === "string") spec = { kind: "field", call, path: this.fieldPath(call.responseType, result, key.replace(/method$/, "result")) };
    else if (result !== undefined) this.fail(key.replace(/method$/, "result"), "an object result needs calls");
    return {
      handler: { kind: "query", calls: [call], result: spec, paging: this.paging(rawPaging, call, key.replace(/method$/, "paging")) },
      referenced: scope.queryNames,
    };
  }
}
