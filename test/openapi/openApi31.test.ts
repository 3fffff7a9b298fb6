import { expect } from "chai";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Codec } from "../../src/codec/codec.js";
import { compileTables } from "../../src/commands/restServer.js";
import { swaggerText } from "../../src/commands/swagger.js";
import { listen } from "../../src/server/httpServer.js";
import type { OpenApi31Document } from "../../src/openapi/openApi31.js";
import type { OpenApiDocument } from "../../src/openapi/openApiTypes.js";
import { createRestApp } from "../../src/server/restApp.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { http } from "../helpers/http.js";
import { runCliToEnd } from "../helpers/processes.js";
import { recordingChainClient } from "../helpers/recordingChainClient.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

type Json = Record<string, unknown>;

/** Every schema object under `value` (properties, items, anyOf members…), the value itself first. */
function schemasUnder(value: unknown): Json[] {
  if (!value || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap(schemasUnder);
  return [value as Json, ...Object.values(value).flatMap(schemasUnder)];
}

describe("OpenAPI 3.1 document (GET /openapi.json, chain-rest swagger --openapi 3.1)", function () {
  this.timeout(60_000);
  const codec = new Codec();
  const tables = compileTables(codec);
  let server: RunningServer;
  let v31: OpenApi31Document;
  let v2: OpenApiDocument;

  before(async () => {
    const app = createRestApp({
      gatewayRoutes: tables.gateway,
      legacy: tables.legacy,
      deps: { client: recordingChainClient(), codec, services: new Map(), maxBodyBytes: 1 << 20, bech32Prefix: "hub" },
      cors: false,
      swagger: true,
    });
    server = await listen(app, testApiConfig());
    const answer = await http(`${server.url}/openapi.json`);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get("content-type")).to.match(/^application\/json/);
    v31 = answer.body as OpenApi31Document;
    v2 = (await http(`${server.url}/swagger`)).body as OpenApiDocument;
  });
  after(() => server.close());

  it("validates with swagger-parser against the OpenAPI 3.1 schema, while /swagger stays Swagger 2.0", async () => {
    expect(v31.openapi).to.equal("3.1.0");
    expect(v2.swagger).to.equal("2.0");
    await SwaggerParser.validate(structuredClone(v31) as never);
    // the validator does look: a parameter in no valid place is refused
    const broken = structuredClone(v31);
    (Object.values(broken.paths)[0]!.get!.parameters[0] as { in: string }).in = "nowhere";
    const refused = await SwaggerParser.validate(broken as never).then(
      () => "",
      (err: Error) => err.message,
    );
    expect(refused).to.not.equal("");
  });

  it("writes every message as a JSON Schema 2020-12 schema (Ajv's 2020 meta-schema), every $ref resolving", () => {
    const ajv = new Ajv2020({ strict: true, validateFormats: false, allErrors: true });
    ajv.addKeyword("example"); // never written (examples is), but tolerated by OpenAPI; listed so strict mode names the rest
    const defs = JSON.parse(JSON.stringify(v31.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')) as Record<string, Json>;
    ajv.addSchema({ $id: "https://chain-rest.test/components", $defs: defs });
    for (const [name, schema] of Object.entries(defs)) {
      expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).to.equal(true);
      expect(ajv.getSchema(`https://chain-rest.test/components#/$defs/${name}`), name).to.be.a("function");
    }
    const all = schemasUnder(v31.components.schemas);
    expect(all.filter((s) => "x-nullable" in s || "example" in s || (typeof s.$ref === "string" && s.$ref.startsWith("#/definitions/")))).to.deep.equal([]);
    // a v2 nullable message is anyOf [its $ref, null]; a nullable bytes field a string or null
    expect(all.some((s) => Array.isArray(s.anyOf) && (s.anyOf as Json[]).some((m) => m.type === "null"))).to.equal(true);
    expect(all.some((s) => Array.isArray(s.type) && (s.type as string[]).includes("null"))).to.equal(true);
  });

  it("accepts the proto3 JSON the server answers with, null for an unset message included", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const defs = JSON.parse(JSON.stringify(v31.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')) as Record<string, Json>;
    ajv.addSchema({ $id: "https://chain-rest.test/components", $defs: defs });
    const operation = v31.paths["/core/bank/v1beta1/balances/{address}/{denom}"]!.get!;
    const schema = (operation.responses["200"]!.content as Record<string, { schema: { $ref: string } }>)["application/json"]!.schema;
    const validate = ajv.getSchema(`https://chain-rest.test/components${schema.$ref.replace("#/components/schemas/", "#/$defs/")}`)!;
    const answer = await http(`${server.url}/core/bank/v1beta1/balances/hub1address/uhub`);
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({ balance: null }); // the recording node answers an empty message
    expect(validate(answer.body), ajv.errorsText(validate.errors)).to.equal(true);
    expect(validate({ balance: { denom: 5 } })).to.equal(false);
  });

  it("lists the same operations as the 2.0 document, with the same parameters, and is what the CLI prints", () => {
    const operations = (paths: Record<string, Record<string, { operationId: string; parameters: Array<{ name: string; in: string }> }>>) =>
      Object.entries(paths)
        .flatMap(([path, item]) =>
          Object.entries(item).map(([verb, op]) => {
            const parameters = op.parameters.filter((p) => p.in !== "body").map((p) => `${p.in}:${p.name}`);
            return `${verb} ${path} ${op.operationId} ${parameters.join(",")}`;
          }),
        )
        .sort();
    const v2Operations = operations(v2.paths);
    expect(operations(v31.paths as never)).to.deep.equal(v2Operations);
    expect(v2Operations.length).to.be.greaterThan(200);
    const bodies = Object.values(v31.paths).flatMap((item) => Object.values(item).filter((op) => op.requestBody));
    expect(bodies.length).to.equal(
      Object.values(v2.paths).flatMap((item) => Object.values(item).filter((op) => op.parameters.some((p) => p.in === "body"))).length,
    );
    expect(JSON.parse(swaggerText("json", "seed", "3.1"))).to.deep.equal(v31);
  });

  it("is printed by chain-rest swagger --openapi 3.1, and not served with api.swagger = false", async () => {
    const run = await runCliToEnd(["swagger", "--openapi", "3.1"]);
    expect(run.code).to.equal(0);
    expect(JSON.parse(run.output)).to.deep.equal(v31);
    const app = createRestApp({
      gatewayRoutes: tables.gateway,
      deps: { client: recordingChainClient(), codec, services: new Map(), maxBodyBytes: 1 << 20, bech32Prefix: "hub" },
      cors: false,
      swagger: false,
    });
    const off = await listen(app, testApiConfig());
    try {
      const answer = await http(`${off.url}/openapi.json`);
      expect(answer.status).to.equal(404);
      expect(answer.body).to.include({ code: 5 });
    } finally {
      await off.close();
    }
  });

  it("gives every path parameter an example that fits its schema", () => {
    for (const [path, item] of Object.entries(v31.paths)) {
      for (const operation of Object.values(item)) {
        for (const parameter of operation.parameters.filter((p) => p.in === "path")) {
          expect(parameter.example, `${path} {${String(parameter.name)}}`).to.be.a("string");
          const schema = parameter.schema as { pattern?: string; enum?: string[] };
          if (schema.pattern) expect(parameter.example).to.match(new RegExp(schema.pattern));
          if (schema.enum) expect(schema.enum).to.include(parameter.example);
        }
      }
    }
  });
});
