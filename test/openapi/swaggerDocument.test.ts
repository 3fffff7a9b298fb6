import { expect } from "chai";
import SwaggerParser from "@apidevtools/swagger-parser";
import { load as loadYaml } from "js-yaml";
import protobuf from "protobufjs";
import { Codec } from "../../src/codec/codec.js";
import { customType, fieldKind, isAny, isDuration, isTimestamp } from "../../src/codec/fieldKinds.js";
import { compileTables } from "../../src/commands/restServer.js";
import { createRestApp } from "../../src/server/restApp.js";
import { buildGatewayRouter } from "../../src/gateway/gatewayRouter.js";
import { buildLegacyRouter, koaPath as legacyKoaPath } from "../../src/legacy/legacyRouter.js";
import { legacyDeps } from "../../src/legacy/legacyDeps.js";
import type { PathSegment } from "../../src/tables/routeSpec.js";
import { listen } from "../../src/server/httpServer.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import type { OpenApiDocument, SimpleParameter } from "../../src/openapi/openApiTypes.js";
import { ResponseValidator } from "../../src/openapi/responseValidator.js";
import { writeSwaggerDocument } from "../../src/openapi/swaggerDocument.js";
import type { RouteSpec } from "../../src/tables/routeSpec.js";
import { http } from "../helpers/http.js";
import { recordingChainClient } from "../helpers/recordingChainClient.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

const API = testApiConfig();

/** A path value that fits the parameter: numbers where a number or numeric pattern is asked, else a name. */
function examplePathValue(p: SimpleParameter): string {
  if (p.type === "array") return "1,2";
  if (p.format === "byte") return "AQID";
  if (p.type === "integer" || p.format === "int64" || p.format === "uint64") return "1";
  return ["name1", "1", "prefix1qqqqqqqq"].find((v) => !p.pattern || new RegExp(p.pattern).test(v))!;
}

function urlOf(path: string, parameters: SimpleParameter[]): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(examplePathValue(parameters.find((p) => p.name === name)!)));
}

/** A message with every field set (one member per oneof), nested up to `depth`, as protobufjs encodes it. */
function filledMessage(type: protobuf.Type, root: protobuf.Root, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    if (field.partOf && field.partOf.fieldsArray[0] !== field) continue;
    const value = filledValue(field, root, depth);
    if (value === undefined) continue;
    if (field instanceof protobuf.MapField) out[field.name] = { "1": value };
    else out[field.name] = field.repeated ? [value, value] : value;
  }
  return out;
}

function filledValue(field: protobuf.Field, root: protobuf.Root, depth: number): unknown {
  const kind = fieldKind(field);
  const custom = customType(field); // sdk.Dec / sdk.Int travel as their text, in a string or a bytes field
  if (custom) {
    const text = custom === "Dec" ? "1500000000000000000" : "42";
    return kind.kind === "bytes" ? new TextEncoder().encode(text) : text;
  }
  switch (kind.kind) {
    case "int64":
      return 7;
    case "int32":
      return 7;
    case "float":
      return 1.5;
    case "bool":
      return true;
    case "string":
      return "text";
    case "bytes":
      return Uint8Array.of(1, 2, 3);
    case "enum":
      return Object.values(kind.type.values).at(-1);
    case "message": {
      if (isTimestamp(kind.type)) return { seconds: 1614600000, nanos: 5_000_000 };
      if (isDuration(kind.type)) return { seconds: 60, nanos: 0 };
      if (isAny(kind.type)) {
        const coin = root.lookupType("core.base.v1beta1.Coin");
        return { type_url: "/core.base.v1beta1.Coin", value: coin.encode({ denom: "uhub", amount: "5" }).finish() };
      }
      return depth >= 3 ? undefined : filledMessage(kind.type, root, depth + 1);
    }
  }
}

const koaPath = (path: string) => path.replace(/\{([^}]+)\}/g, ":$1");
const segmentsOf = (path: string): PathSegment[] =>
  path
    .split("/")
    .slice(1)
    .map((part) => (/^\{.+\}$/.test(part) ? { variable: part.slice(1, -1) } : { literal: part }));

describe("OpenAPI document written from the route tables", function () {
  this.timeout(60_000);
  const codec = new Codec();
  const tables = compileTables(codec);
  const routes: RouteSpec[] = tables.gateway;
  const document: OpenApiDocument = writeSwaggerDocument(tables, codec.root);
  const allOperations = Object.entries(document.paths).flatMap(([path, item]) =>
    (["get", "post", "put"] as const).flatMap((verb) => (item[verb] ? [{ path, verb, operation: item[verb] }] : [])),
  );
  const legacyKeys = new Set(tables.legacy.routes.map((r) => `${r.verb} ${r.path}`));
  // the gateway family's operations (the legacy family's are those of legacy-routes.yaml; the probes are tagged operations)
  const operations = allOperations.filter((o) => !legacyKeys.has(`${o.verb} ${o.path}`) && !o.operation.tags.includes("operations")) as Array<{
    path: string;
    verb: "get" | "post";
    operation: (typeof allOperations)[number]["operation"];
  }>;
  const routeOf = (verb: string, path: string) => routes.find((r) => r.verb === verb && r.path === path)!;

  it("validates with swagger-parser", async () => {
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it("lists exactly the routes the engine registers (both families), and each route once", () => {
    const deps = { client: recordingChainClient(), codec, services: new Map(), maxBodyBytes: 1, bech32Prefix: "hub" };
    const gatewayServed = buildGatewayRouter(routes, deps).stack.flatMap((layer) => layer.methods.filter((m) => m !== "HEAD").map((m) => `${m} ${layer.path}`));
    // the legacy router names path variables by position (they may hold "-"); the document keeps the table's names
    const legacyServed = buildLegacyRouter(tables.legacy.routes, legacyDeps(deps, tables.legacy.transforms)).stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== "HEAD").map((m) => `${m} ${layer.path}`),
    );
    const engine = [...gatewayServed, ...legacyServed];
    // the balancer's probes and the event stream are served beside the tables (test/e2e/operations/readiness.e2e.test.ts, eventStream.e2e.test.ts)
    const probes = allOperations.filter((o) => o.operation.tags.includes("operations")).map((o) => `${o.verb} ${o.path}`);
    expect(probes).to.deep.equal(["get /healthz", "get /readyz", "get /events"]);
    const documented = allOperations
      .filter((o) => !o.operation.tags.includes("operations"))
      .map(({ verb, path }) =>
        legacyKeys.has(`${verb} ${path}`) ? `${verb.toUpperCase()} ${legacyKoaPath({ segments: segmentsOf(path) })}` : `${verb.toUpperCase()} ${koaPath(path)}`,
      );
    expect(
      documented.filter((o) => !engine.includes(o)),
      "documented but not served",
    ).to.deep.equal([]);
    expect(
      engine.filter((o) => !documented.includes(o)),
      "served but not documented",
    ).to.deep.equal([]);
    expect(documented).to.have.length(routes.length + tables.legacy.routes.length);
    expect(new Set(documented).size).to.equal(documented.length);
    const legacyDocumented = allOperations.filter((o) => legacyKeys.has(`${o.verb} ${o.path}`));
    expect(legacyDocumented).to.have.length(tables.legacy.routes.length);
    for (const { operation } of legacyDocumented) expect(operation.deprecated, operation.operationId).to.equal(true);
    console.log(`      (${operations.length} gateway and ${legacyDocumented.length} legacy operations)`);
  });

  it("gives every operation a module tag, a unique operationId, the height header and the error body", () => {
    const tags = document.tags.map((t) => t.name);
    const ids = new Set(operations.map((o) => o.operation.operationId));
    expect(ids.size).to.equal(operations.length);
    for (const { path, verb, operation } of operations) {
      expect(operation.tags, path).to.deep.equal([routeOf(verb, path).tag]);
      expect(tags).to.include(operation.tags[0]);
      expect(operation.parameters.map((p) => `${p.in} ${p.name}`)).to.include("header x-cosmos-block-height");
      expect(operation.responses.default!.schema).to.deep.equal({ $ref: "#/definitions/gateway.Error" });
    }
    expect(document.info.version).to.match(/^\d+\.\d+\.\d+/);
    expect(tags).to.include.members(["auth", "bank", "staking", "gov", "ibc.channel", "token", "tx"]);
  });

  it("types path, query and body parameters from the request fields", () => {
    const params = (verb: "get" | "post", path: string) => document.paths[path]![verb]!.parameters as SimpleParameter[];
    const byName = (list: SimpleParameter[], name: string) => list.find((p) => p.name === name);
    const proposals = params("get", "/core/gov/v1beta1/proposals");
    expect(byName(proposals, "proposal_status")).to.include({ in: "query", type: "string" });
    expect(byName(proposals, "proposal_status")!.enum).to.include("PROPOSAL_STATUS_VOTING_PERIOD");
    expect(byName(proposals, "pagination.key")).to.include({ type: "string", format: "byte" });
    expect(byName(proposals, "pagination.limit")).to.include({ type: "string", format: "uint64" });
    expect(byName(proposals, "pagination.count_total")).to.include({ type: "boolean" });
    expect(byName(params("get", "/core/gov/v1beta1/proposals/{proposal_id}"), "proposal_id")).to.include({
      in: "path",
      required: true,
      type: "string",
      format: "uint64",
    });
    expect(byName(params("get", "/core/staking/v1beta1/validators"), "status")).to.include({ in: "query", type: "string" });
    expect(byName(params("get", "/core/tx/v1beta1/txs"), "events")).to.deep.include({ type: "array", items: { type: "string" }, collectionFormat: "multi" });
    expect(byName(params("get", "/core/base/consensus/v1beta1/blocks/{height}"), "height")).to.include({ format: "int64", pattern: "^(?:-?[0-9]+)$" });
    // A path variable that fills a field is not offered again as a query parameter.
    expect(params("get", "/core/bank/v1beta1/balances/{address}").map((p) => p.name)).to.deep.equal([
      "address",
      "pagination.key",
      "pagination.offset",
      "pagination.limit",
      "pagination.count_total",
      "pagination.reverse",
      "x-cosmos-block-height",
    ]);
    const broadcast = document.paths["/core/tx/v1beta1/txs"]!.post!.parameters;
    expect(broadcast.map((p) => p.in)).to.deep.equal(["body", "header"]);
    expect(broadcast[0]).to.deep.include({ schema: { $ref: "#/definitions/core.tx.v1beta1.BroadcastTxRequest" } });
  });

  it("writes response definitions in proto3 JSON form", () => {
    const d = document.definitions;
    expect(d["core.base.v1beta1.Coin"]).to.deep.include({ required: ["denom", "amount"] });
    expect(d["core.base.v1beta1.Coin"]!.properties!.amount).to.deep.equal({
      type: "string",
      pattern: "^-?\\d+$",
      description: "integer of any size",
      example: "1000",
    });
    expect(d["core.base.query.v1beta1.PageResponse"]!.properties).to.deep.equal({
      next_key: { type: "string", format: "byte", description: "standard base64", "x-nullable": true },
      total: { type: "string", format: "uint64" },
    });
    expect(d["core.auth.v1beta1.QueryAccountResponse"]!.properties!.account).to.deep.equal({
      allOf: [{ $ref: "#/definitions/google.protobuf.Any" }],
      "x-nullable": true,
    });
    const validator = d["core.staking.v1beta1.Validator"]!.properties!;
    expect(validator.status).to.include({ type: "string" });
    expect(validator.delegator_shares).to.include({ pattern: "^-?\\d+\\.\\d{18}$" });
    expect(validator.unbonding_time).to.include({ type: "string", format: "date-time" });
    expect(validator.jailed).to.deep.equal({ type: "boolean" });
  });

  describe("served by the engine", () => {
    const servers: RunningServer[] = [];
    const answers = new Map<string, Uint8Array>();
    const client = recordingChainClient(answers);
    const validator = new ResponseValidator(document);
    let url = "";
    before(async () => {
      const app = createRestApp({
        gatewayRoutes: routes,
        legacy: tables.legacy,
        deps: { client, codec, services: new Map(), maxBodyBytes: API["rpc-max-body-bytes"], bech32Prefix: "hub" },
        cors: false,
        swagger: true,
      });
      const server = await listen(app, API);
      servers.push(server);
      url = server.url;
    });
    after(() => Promise.all(servers.map((s) => s.close())));

    /** Calls every operation with example path values; each must reach its own method and answer what its schema says. */
    async function callEveryOperation(): Promise<number> {
      let validated = 0;
      for (const { path, verb, operation } of operations) {
        const route = routeOf(verb, path);
        const target = url + urlOf(path, operation.parameters as SimpleParameter[]);
        const init = verb === "post" ? { method: "POST", headers: { "content-type": "application/json" }, body: "{}" } : {};
        const r = await http(target, init);
        expect(r.status, `${verb} ${target}: ${r.text}`).to.equal(200);
        expect(client.queries.at(-1)?.path, `${verb} ${target}`).to.equal(route.methodPath);
        expect(validator.check(verb, path, 200, r.body), `${verb} ${path} answered ${r.text}`).to.deep.equal([]);
        validated++;
      }
      return validated;
    }

    it("reaches every documented operation's method, and its empty answer fits the schema", async () => {
      answers.clear();
      expect(await callEveryOperation()).to.equal(routes.length);
    });

    it("renders answers with every field set that fit the schema", async () => {
      for (const route of routes)
        answers.set(route.methodPath, route.responseType.encode(route.responseType.fromObject(filledMessage(route.responseType, codec.root))).finish());
      expect(await callEveryOperation()).to.equal(routes.length);
    });

    it("finds answers that do not fit the schema", () => {
      const path = "/core/bank/v1beta1/balances/{address}";
      expect(validator.check("get", path, 200, { balances: [{ denom: "uhub", amount: "5" }], pagination: null })).to.deep.equal([]);
      expect(validator.check("get", path, 200, { balances: [{ denom: "uhub", amount: 5 }], pagination: null })).to.have.length.greaterThan(0);
      expect(validator.check("get", path, 200, { balances: [] })).to.have.length.greaterThan(0);
      expect(validator.check("get", path, 200, { balances: [], pagination: { next_key: "%%", total: "1" } })).to.have.length.greaterThan(0);
      expect(validator.check("get", path, 404, { code: 5, message: "x", details: [] })).to.deep.equal([]);
    });

    it("serves the document as JSON, and as YAML when asked", async () => {
      const json = await http(`${url}/swagger`);
      expect(json.status).to.equal(200);
      expect(json.headers.get("content-type")).to.match(/^application\/json/);
      expect(json.body).to.deep.equal(document);
      for (const init of [{ headers: { accept: "application/yaml" } }, {}]) {
        const yaml = await http(`${url}/swagger${"headers" in init ? "" : "?format=yaml"}`, init);
        expect(yaml.status).to.equal(200);
        expect(yaml.headers.get("content-type")).to.match(/^application\/yaml/);
        expect(loadYaml(yaml.text)).to.deep.equal(document);
      }
      const browser = await http(`${url}/swagger`, { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
      expect(browser.headers.get("content-type")).to.match(/^application\/json/);
      const bad = await http(`${url}/swagger?format=xml`);
      expect(bad.status).to.equal(400);
      expect(bad.body).to.deep.equal({ code: 3, message: "format must be one of json, yaml", details: [] });
    });

    it("serves the Swagger UI from node_modules, pointed at /swagger", async () => {
      const page = await http(`${url}/swagger/`);
      expect(page.status).to.equal(200);
      expect(page.headers.get("content-type")).to.match(/^text\/html/);
      const scripts = [...page.text.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts).to.include.members(["swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-initializer.js"]);
      for (const file of scripts) {
        const r = await http(`${url}/swagger/${file}`);
        expect(r.status, file).to.equal(200);
      }
      const initializer = await http(`${url}/swagger/swagger-initializer.js`);
      expect(initializer.text).to.include('new URL("../swagger", window.location.href)').and.not.include("petstore");
      expect((await http(`${url}/swagger/package.json`)).status).to.equal(404);
      expect((await http(`${url}/swagger/..%2Fpackage.json`)).status).to.equal(404);
      // Other verbs are not swagger's: the gateway answers them as unknown routes.
      expect((await http(`${url}/swagger`, { method: "POST" })).status).to.equal(501);
    });

    it("answers 404 for /swagger and /swagger/ when api.swagger is false", async () => {
      const app = createRestApp({
        gatewayRoutes: routes,
        deps: { client, codec, services: new Map(), maxBodyBytes: 100, bech32Prefix: "hub" },
        cors: false,
        swagger: false,
      });
      const server = await listen(app, API);
      servers.push(server);
      for (const path of ["/swagger", "/swagger/", "/swagger/swagger-ui.css", "/swagger?format=yaml"]) {
        const r = await http(`${server.url}${path}`);
        expect(r.status, path).to.equal(404);
        expect(r.body).to.deep.equal({ code: 5, message: "Not Found: the OpenAPI file is not served (api.swagger = false in app.toml)", details: [] });
      }
      expect((await http(`${server.url}/core/bank/v1beta1/params`)).status).to.equal(200);
    });
  });
});
