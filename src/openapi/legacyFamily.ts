import { isDeepStrictEqual } from "node:util";
import protobuf from "protobufjs";
import { fieldKind, typeName } from "../codec/fieldKinds.js";
import type { AminoTransforms } from "../tables/aminoTransforms.js";
import type { Call, Handler, LegacyRouteSpec, ParamSpec } from "../tables/legacyRouteSpec.js";
import type { Template } from "../tables/legacyTemplates.js";
import { DEPRECATION_HEADERS } from "../legacy/deprecationHeaders.js";
import { AminoSchemas, nullable } from "./aminoSchemas.js";
import type { Parameter, Response, Schema, SimpleParameter } from "./openApiTypes.js";
import type { FamilyOperation, RouteFamilyDocument } from "./routeFamily.js";
import { lookupType } from "../codec/typeRegistry.js";

const ERROR_DEFINITION = "legacy.Error";
const BASE_REQ = "legacy.BaseReq";

/**
 * The legacy family's part of the document: one deprecated operation per
 * compiled legacy route, answers in amino JSON after amino-transforms.yaml, in
 * the {height, result} envelope where the route wraps, and {"error": ...} as
 * the error answer.
 */
export function legacyFamilyDocument(routes: LegacyRouteSpec[], root: protobuf.Root, transforms: AminoTransforms): RouteFamilyDocument {
  const schemas = new AminoSchemas(transforms, root);
  const operations = routes.map((route): FamilyOperation => {
    const parameters: Parameter[] = [...route.params.path.values()].map((p) => simpleParameter(p, route));
    for (const p of route.params.query.values()) parameters.push(simpleParameter(p, route));
    const handler = route.handlers.at(-1)!.handler;
    const defaultLimit = pagingLimit(route);
    if (defaultLimit) {
      parameters.push({ name: "page", in: "query", required: false, type: "integer", minimum: 1, description: "page number (default 1)" });
      parameters.push({ name: "limit", in: "query", required: false, type: "integer", minimum: 1, description: `page size (default ${defaultLimit})` });
    }
    if (route.readsHeight) {
      parameters.push({
        name: "height",
        in: "query",
        required: false,
        type: "string",
        format: "int64",
        pattern: "^[0-9]+$",
        description: "read the state at this block height (absent or 0: the latest)",
      });
    }
    const body = bodyParameter(handler, schemas, root);
    if (body) parameters.push(body);
    const result = resultSchema(route, schemas, root);
    const success: Response = {
      description: describeSuccess(route),
      schema:
        route.envelope === "height"
          ? { type: "object", properties: { height: { type: "string", format: "int64" }, result: result ?? {} }, required: ["height", "result"] }
          : (result ?? {}),
      ...(route.deprecationHeaders ? { headers: deprecationHeaders() } : {}),
    };
    const responses: Record<string, Response> = handler.kind === "answer" ? {} : { "200": success };
    if (handler.kind === "search-txs-each" && handler.otherwise < 300)
      responses[String(handler.otherwise)] = { description: `?${handler.select}= names none of the searches: no body` };
    responses.default = {
      description: 'an error: {"error": message} with the real server\'s status (400 bad parameter or body, 401/402 base_req, 404 not found, 500 node failure)',
      schema: { $ref: `#/definitions/${ERROR_DEFINITION}` },
      ...(route.deprecationHeaders ? { headers: deprecationHeaders() } : {}),
    };
    return {
      path: route.path,
      verb: route.verb,
      operationId: operationId(route),
      operation: {
        summary: route.summary,
        description: [describeHandler(handler), route.why ? `Why this route exists: ${route.why}.` : ""].filter(Boolean).join(" "),
        tags: [route.tag],
        deprecated: true,
        ...(body ? { consumes: ["application/json"] } : {}),
        parameters,
        responses,
      },
    };
  });
  schemas.definitions[ERROR_DEFINITION] = {
    type: "object",
    title: "the error body of legacy routes",
    properties: { error: { type: "string" } },
    required: ["error"],
  };
  return { tags: tagsOf(routes), operations, definitions: schemas.definitions };
}

function simpleParameter(spec: ParamSpec, route: LegacyRouteSpec): SimpleParameter {
  const segment = route.segments.find((s) => "variable" in s && s.variable === spec.name);
  const rules = [
    spec.description,
    spec.default ? `default ${spec.default}` : "",
    segment && "variable" in segment && segment.reject ? `not ${segment.reject.source.slice(4, -2)} (another route)` : "",
  ].filter(Boolean);
  const base: SimpleParameter = {
    name: spec.name,
    in: spec.in,
    required: spec.required,
    type: "string",
    ...(rules.length ? { description: rules.join("; ") } : {}),
  };
  if (spec.format === "uint64") return { ...base, format: "uint64", pattern: "^[0-9]+$" };
  if (spec.format === "int64") return { ...base, format: "int64", pattern: "^-?[0-9]+$" };
  if (spec.format === "hex") return { ...base, pattern: "^([0-9A-Fa-f]{2})+$" };
  if (spec.format === "account" || spec.format === "validator")
    return {
      ...base,
      description: [base.description, `a bech32 ${spec.format === "account" ? "account" : "validator operator"} address`].filter(Boolean).join("; "),
    };
  return base;
}

function pagingLimit(route: LegacyRouteSpec): number | undefined {
  for (const { handler } of route.handlers) {
    if (handler.kind === "query" && handler.paging) return handler.paging.defaultLimit;
    if (handler.kind === "search-txs") return handler.paging.defaultLimit;
  }
  return undefined;
}

function deprecationHeaders(): Record<string, { type: "string"; description: string }> {
  return Object.fromEntries(Object.entries(DEPRECATION_HEADERS).map(([name, value]) => [name, { type: "string" as const, description: `always ${value}` }]));
}

/** The schema of what a route answers (inside the envelope), undefined for a fixed error. */
function resultSchema(route: LegacyRouteSpec, schemas: AminoSchemas, root: protobuf.Root): Schema | undefined {
  const handler = route.handlers.at(-1)!.handler;
  switch (handler.kind) {
    case "query": {
      const results = route.handlers.map((h) => (h.handler.kind === "query" ? querySchema(h.handler, route.aminoWrap, schemas) : {}));
      if (results.every((r) => isDeepStrictEqual(r, results[0]))) return results[0];
      // v2 has no oneOf: the variants' forms are described, and any value is allowed
      const forms = route.handlers.map((h, i) => {
        const when = h.when?.query
          ? `with ?${h.when.query}`
          : h.when?.path
            ? `when ${[...h.when.path].map(([name, re]) => `{${name}} is ${re.source.slice(4, -2)}`).join(", ")}`
            : "otherwise";
        return `${when}: ${results[i]!.$ref?.replace("#/definitions/", "") ?? JSON.stringify(results[i])}`;
      });
      return { description: `depends on the request: ${forms.join("; ")}` };
    }
    case "generate":
      return {
        type: "object",
        description: 'the unsigned StdTx wrapped as {"type": "core-sdk/StdTx", "value": ...}; with base_req.simulate, {"gas_estimate": "..."}',
        properties: { type: { type: "string" }, value: schemas.stdTx(), gas_estimate: { type: "string", format: "uint64" } },
      };
    case "broadcast-std-tx":
      return schemas.message(lookupType(root, "core.base.abci.v1beta1.TxResponse"));
    case "encode-std-tx":
      return { type: "object", properties: { tx: { type: "string", format: "byte", description: "the protobuf TxRaw, base64" } }, required: ["tx"] };
    case "decode-tx":
      return schemas.stdTx();
    case "search-txs":
      return nullable(schemas.message(lookupType(root, "core.base.abci.v1beta1.SearchTxsResult")));
    case "search-txs-each":
      return { type: "array", items: schemas.message(lookupType(root, "core.base.abci.v1beta1.SearchTxsResult")) };
    case "answer":
      return undefined;
  }
}

function querySchema(handler: Extract<Handler, { kind: "query" }>, wrap: boolean, schemas: AminoSchemas): Schema {
  const spec = handler.result;
  if (spec.kind === "whole") return schemas.top(spec.call.responseType, wrap);
  if (spec.kind === "field") {
    let owner = spec.call.responseType;
    for (const [i, field] of spec.path.entries()) {
      const last = i === spec.path.length - 1;
      if (field.repeated || !(field.resolvedType instanceof protobuf.Type)) return schemas.field(owner, field);
      if (last) return schemas.top(field.resolvedType, wrap);
      owner = field.resolvedType;
    }
  }
  if (spec.kind === "template") return templateSchema(spec.template, handler.calls, schemas);
  return {};
}

/** The schema of a result template: references to calls take the field's schema, parameters are strings. */
function templateSchema(template: Template, calls: Call[], schemas: AminoSchemas): Schema {
  switch (template.kind) {
    case "literal":
      return {};
    case "object": {
      const properties = Object.fromEntries(template.fields.map(([key, t]) => [key, templateSchema(t, calls, schemas)]));
      return { type: "object", properties, required: Object.keys(properties) };
    }
    case "array":
      return { type: "array", items: {} };
    case "ref": {
      if (template.source !== "calls") return template.pipes.includes("parse_json") ? {} : { type: "string" };
      if (template.pipes.includes("parse_json")) return {};
      const call = calls.find((c) => c.name === template.path[0]);
      if (!call) return {};
      let type = call.kind === "method" ? call.responseType : call.msgType;
      const path = template.path.slice(1);
      for (const [i, name] of path.entries()) {
        const field = type.fields[name];
        if (!field) return {};
        if (i === path.length - 1 || field.repeated || !(field.resolvedType instanceof protobuf.Type)) return schemas.field(type, field);
        type = field.resolvedType;
      }
      return schemas.message(type);
    }
    case "join":
      return { type: "string" };
    case "first":
    case "map":
    case "each":
      return {};
  }
}

/** The JSON body a route reads: base_req and the fields its Msg templates take, typed from where they land. */
function bodyParameter(handler: Handler, schemas: AminoSchemas, root: protobuf.Root): Parameter | undefined {
  switch (handler.kind) {
    case "generate": {
      baseReqDefinition(schemas, root);
      const properties: Record<string, Schema> = { base_req: { $ref: `#/definitions/${BASE_REQ}` } };
      for (const msg of handler.msgs) collectBodyFields(msg.value, msg.protoType, schemas, properties);
      return {
        name: "body",
        in: "body",
        required: true,
        description: "base_req and the route's fields (amino JSON: 64-bit numbers quoted)",
        schema: { type: "object", properties, required: ["base_req"] },
      };
    }
    case "broadcast-std-tx":
      return {
        name: "body",
        in: "body",
        required: true,
        description: "a signed StdTx (its value; the {type, value} form is read too) and the broadcast mode",
        schema: { type: "object", properties: { tx: schemas.stdTx(), mode: { type: "string", enum: [...handler.modes.keys()] } }, required: ["tx", "mode"] },
      };
    case "encode-std-tx":
      return {
        name: "body",
        in: "body",
        required: true,
        description: 'a StdTx as {"type": "core-sdk/StdTx", "value": ...} (its value alone is read too)',
        schema: { type: "object", properties: { type: { type: "string" }, value: schemas.stdTx() } },
      };
    case "decode-tx":
      return {
        name: "body",
        in: "body",
        required: true,
        description: "the bytes of a protobuf TxRaw or of an amino-binary StdTx",
        schema: { type: "object", properties: { tx: { type: "string", format: "byte" } }, required: ["tx"] },
      };
    default:
      return undefined;
  }
}

function collectBodyFields(template: Template, type: protobuf.Type | undefined, schemas: AminoSchemas, out: Record<string, Schema>): void {
  if (template.kind !== "object") return;
  for (const [key, value] of template.fields) {
    const field = type?.fieldsArray.find((f) => (schemas.transforms.types.get(typeName(type))?.rename.get(f.name) ?? f.name) === key);
    bodyField(value, type && field ? { owner: type, field } : undefined, schemas, out);
  }
}

function bodyField(
  template: Template,
  target: { owner: protobuf.Type; field: protobuf.Field } | undefined,
  schemas: AminoSchemas,
  out: Record<string, Schema>,
): void {
  switch (template.kind) {
    case "ref": {
      if (template.source !== "body" || template.path.length !== 1) return;
      const name = template.path[0]!;
      if (out[name]) return;
      if (template.pipes.includes("coins")) out[name] = { type: "string", description: 'coins as text, e.g. "100uhub,5ucat"' };
      else if (template.pipes.includes("unix_after")) out[name] = { type: "string", description: 'a duration from now, e.g. "10m"' };
      else if (template.pipes.includes("json")) out[name] = { description: "any JSON value" };
      else out[name] = target ? schemas.field(target.owner, target.field) : {};
      return;
    }
    case "map":
      if (template.from.kind === "ref" && template.from.source === "body")
        out[template.from.path[0]!] ??= { type: "string", enum: [...template.values.keys()] };
      return;
    case "first":
      for (const option of template.options) bodyField(option, target, schemas, out);
      return;
    case "join":
      for (const part of template.parts) bodyField(part, target, schemas, out);
      return;
    case "each":
      if (template.from.kind === "ref" && template.from.source === "body") out[template.from.path[0]!] ??= { type: "array", items: { type: "object" } };
      return;
    case "object": {
      const kind = target ? fieldKind(target.field) : undefined;
      // an interface value {type, value}: its value's fields are the route's fields too
      const inner = template.fields.find(([k]) => k === "value")?.[1];
      const aminoType = template.fields.find(([k]) => k === "type")?.[1];
      if (inner && aminoType?.kind === "literal") {
        collectBodyFields(inner, lookupByAminoName(schemas, String(aminoType.value), target?.owner), schemas, out);
        return;
      }
      collectBodyFields(template, kind?.kind === "message" ? kind.type : undefined, schemas, out);
      return;
    }
    default:
      return;
  }
}

function lookupByAminoName(schemas: AminoSchemas, name: string, near: protobuf.Type | undefined): protobuf.Type | undefined {
  const proto = schemas.transforms.typesByName.get(name);
  const found = proto && near ? near.root.lookup(proto) : undefined;
  return found instanceof protobuf.Type ? found : undefined;
}

function baseReqDefinition(schemas: AminoSchemas, root: protobuf.Root): void {
  if (schemas.definitions[BASE_REQ]) return;
  const coins = { type: "array" as const, items: schemas.message(lookupType(root, "core.base.v1beta1.Coin")) };
  const decCoins = { type: "array" as const, items: schemas.message(lookupType(root, "core.base.v1beta1.DecCoin")) };
  schemas.definitions[BASE_REQ] = {
    type: "object",
    title: "base_req of the generate-only routes (rest.BaseReq)",
    properties: {
      from: { type: "string", description: "the signer's account address" },
      memo: { type: "string" },
      chain_id: { type: "string", description: "required unless simulate" },
      account_number: { type: "string", format: "uint64" },
      sequence: { type: "string", format: "uint64" },
      timeout_height: { type: "string", format: "uint64" },
      fees: coins,
      gas_prices: decCoins,
      gas: { type: "string", description: '"" (200000), "auto" (simulated), or a number' },
      gas_adjustment: { type: "string", description: "multiplies the simulated gas (default 1.0)" },
      simulate: { type: "boolean", description: 'answer {"gas_estimate": "..."} instead of the transaction' },
    },
    required: ["from"],
  };
}

function describeSuccess(route: LegacyRouteSpec): string {
  return route.envelope === "height" ? 'amino JSON in the envelope {"height": "...", "result": ...}' : "amino JSON";
}

function describeHandler(handler: Handler): string {
  switch (handler.kind) {
    case "query":
      return `Calls ${handler.calls.map((c: Call) => (c.kind === "method" ? c.methodPath.slice(1) : `a transaction search for ${typeName(c.msgType)}`)).join(" and ")}.`;
    case "generate":
      return `Builds an unsigned transaction of ${handler.msgs.map((m) => m.aminoType).join(", ")}; sign it and POST it to /txs.`;
    case "broadcast-std-tx":
      return "Broadcasts a signed StdTx as a protobuf transaction in SIGN_MODE_LEGACY_AMINO_JSON, each signer's sequence taken from its account.";
    case "encode-std-tx":
      return "Encodes a StdTx as the protobuf TxRaw the node accepts (as the real v0.41 server did; not amino binary).";
    case "decode-tx":
      return "Decodes a protobuf TxRaw or an amino-binary StdTx to the StdTx in amino JSON.";
    case "search-txs":
      return "Every query parameter other than page and limit is an event condition (message.sender=..., tx.minheight=..., tx.maxheight=...); no parameter at all answers null.";
    case "search-txs-each":
      return `One transaction search per kind (${handler.searches.map((s) => `${s.name}: ${s.events.join(" AND ")}`).join("; ")}), the first ${handler.limit} transactions of each, as a list of search results; ?${handler.select}= picks one kind, and one it does not name answers ${handler.otherwise}.`;
    case "answer":
      return `Always answers ${handler.status}: ${handler.error}.`;
  }
}

function operationId(route: LegacyRouteSpec): string {
  const words = route.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `Legacy${route.verb.charAt(0).toUpperCase()}${route.verb.slice(1)}${words.join("")}`;
}

function tagsOf(routes: LegacyRouteSpec[]): RouteFamilyDocument["tags"] {
  return [...new Set(routes.map((r) => r.tag))].map((name) => ({
    name,
    description: `legacy routes (deprecated, amino JSON) of ${name.replace(/^legacy\./, "/")}`,
  }));
}
