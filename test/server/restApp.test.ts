import { expect } from "chai";
import { Codec } from "../../src/codec/codec.js";
import { RpcClient } from "../../src/client/rpcClient.js";
import { createRestApp } from "../../src/server/restApp.js";
import { listen } from "../../src/server/httpServer.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { loadRoutes } from "../../src/tables/compileRoutes.js";
import type { ChainClient } from "../../src/client/chainClient.js";
import { http } from "../helpers/http.js";
import { tempDir, writeFile } from "../helpers/tempDir.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

/** A ChainClient whose node answers queries from a table of bytes (empty when not listed), recording what it was asked. */
function fixedClient(answers: Record<string, Uint8Array>): ChainClient & { calls: Array<{ path: string; data: Uint8Array; height?: number }> } {
  const calls: Array<{ path: string; data: Uint8Array; height?: number }> = [];
  const unsupported = () => Promise.reject(new Error("not used"));
  return {
    address: "fixture",
    calls,
    abciQuery: async (p, data, height) => {
      calls.push({ path: p, data, height });
      return { code: 0, codespace: "", log: "", value: answers[p] ?? new Uint8Array(), height: 42 };
    },
    broadcastTx: unsupported,
    tx: unsupported,
    txSearch: unsupported,
    block: unsupported,
    validators: unsupported,
    status: unsupported,
  };
}

const API = testApiConfig({ "rpc-max-body-bytes": 200 });

describe("REST app: bodies, limits, CORS and node failures", () => {
  const codec = new Codec();
  const dir = tempDir();
  const table = writeFile(
    dir,
    "routes.yaml",
    ["- post: /balance", "  method: core.bank.v1beta1.Query/Balance", '  body: "*"', "- get: /params", "  method: core.bank.v1beta1.Query/Params"].join("\n"),
  );
  const routes = loadRoutes(table, codec.root);
  const Balance = codec.type("core.bank.v1beta1.QueryBalanceResponse");
  const client = fixedClient({ "/core.bank.v1beta1.Query/Balance": Balance.encode({ balance: { denom: "uhub", amount: "5" } }).finish() });
  const servers: RunningServer[] = [];
  const start = async (options: { cors?: boolean; client?: ChainClient } = {}) => {
    const app = createRestApp({
      gatewayRoutes: routes,
      deps: { client: options.client ?? client, codec, services: new Map(), maxBodyBytes: API["rpc-max-body-bytes"], bech32Prefix: "hub" },
      cors: options.cors ?? false,
    });
    const server = await listen(app, API);
    servers.push(server);
    return server.url;
  };
  after(() => Promise.all(servers.map((s) => s.close())));

  it("encodes a JSON body into the request and answers with the rendered response and height", async () => {
    const url = await start();
    const r = await http(`${url}/balance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: "hub1x", denom: "uhub" }),
    });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ balance: { denom: "uhub", amount: "5" } });
    expect(r.headers.get("grpc-metadata-x-cosmos-block-height")).to.equal("42");
    const sent = codec.type("core.bank.v1beta1.QueryBalanceRequest").decode(client.calls.at(-1)!.data);
    expect(sent.toJSON()).to.deep.equal({ address: "hub1x", denom: "uhub" });
    expect(client.calls.at(-1)!.path).to.equal("/core.bank.v1beta1.Query/Balance");
  });

  it("answers a malformed JSON body with 400 and code 3", async () => {
    const url = await start();
    const r = await http(`${url}/balance`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(r.status).to.equal(400);
    expect(r.body.code).to.equal(3);
    expect(r.body.message).to.match(/^malformed JSON body/);
  });

  it("answers a body of the wrong shape with 400 naming the field", async () => {
    const url = await start();
    const r = await http(`${url}/balance`, { method: "POST", body: JSON.stringify({ address: 5 }) });
    expect(r.status).to.equal(400);
    expect(r.body.message).to.equal("invalid request: address: expected a string");
  });

  it("answers a body over rpc-max-body-bytes with 413", async () => {
    const url = await start();
    const r = await http(`${url}/balance`, { method: "POST", body: JSON.stringify({ address: "x".repeat(500) }) });
    expect(r.status).to.equal(413);
    expect(r.body.message).to.include("larger than 200 bytes");
  });

  it("sends no CORS headers unless enabled-unsafe-cors is set", async () => {
    const url = await start();
    const r = await http(`${url}/params`, { headers: { origin: "http://example.test" } });
    expect(r.headers.get("access-control-allow-origin")).to.equal(null);
  });

  it("with CORS on, allows the height header in preflight and exposes the answered height", async () => {
    const url = await start({ cors: true });
    const preflight = await http(`${url}/params`, {
      method: "OPTIONS",
      headers: { origin: "http://example.test", "access-control-request-method": "GET", "access-control-request-headers": "x-cosmos-block-height" },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get("access-control-allow-headers")).to.include("x-cosmos-block-height");
    const r = await http(`${url}/params`, { headers: { origin: "http://example.test" } });
    expect(r.headers.get("access-control-allow-origin")).to.equal("*");
    // the answered height in both forms, and a multi-node gateway's headers (the node that answered, a broadcast's path)
    expect(r.headers.get("access-control-expose-headers")).to.equal(
      "Grpc-Metadata-X-Cosmos-Block-Height,X-Cosmos-Block-Height,X-Chain-Rest-Upstream,X-Chain-Rest-Broadcast",
    );
  });

  it("answers 503 naming the node when the node cannot be reached", async () => {
    const url = await start({ client: new RpcClient("http://127.0.0.1:9", 2000) });
    const r = await http(`${url}/params`);
    expect(r.status).to.equal(503);
    expect(r.body.code).to.equal(14);
    expect(r.body.message).to.match(/^node http:\/\/127\.0\.0\.1:9 is unavailable/);
  });

  it("answers 500 with a clear message when the node's answer does not decode", async () => {
    const url = await start({ client: fixedClient({ "/core.bank.v1beta1.Query/Params": Uint8Array.of(0x0a, 0x05, 0x01) }) });
    const r = await http(`${url}/params`);
    expect(r.status).to.equal(500);
    expect(r.body.code).to.equal(13);
    expect(r.body.message).to.match(/^the node's answer to \/core\.bank\.v1beta1\.Query\/Params is not a core\.bank\.v1beta1\.QueryParamsResponse: /);
  });

  it("answers 501 naming the method when the node does not serve it", async () => {
    const notServed: ChainClient = {
      ...fixedClient({}),
      abciQuery: async (p) => ({
        code: 6,
        codespace: "sdk",
        log: `unknown query path: no handler for ${p}: unknown request`,
        value: new Uint8Array(),
        height: 3,
      }),
    };
    const url = await start({ client: notServed });
    const r = await http(`${url}/params`);
    expect(r.status).to.equal(501);
    expect(r.body.code).to.equal(12);
    expect(r.body.message).to.include("/core.bank.v1beta1.Query/Params is not served by the node");
  });
});
