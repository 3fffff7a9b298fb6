/**
 * Requests per second of the REST server in front of the embedded node,
 * against a bare Koa server that answers the same JSON from memory, in the
 * same run on the same machine (the ratio is the engine's cost).
 *
 *   npx tsx bench/gatewayThroughput.bench.ts
 */
import path from "node:path";
import http from "node:http";
import Koa from "koa";
import autocannon from "autocannon";
import { initHome } from "../src/commands/init.js";
import { Codec } from "../src/codec/codec.js";
import { EmbeddedNode } from "../src/node/embeddedNode.js";
import { InProcessClient } from "../src/node/inProcessClient.js";
import { startRestServer } from "../src/commands/restServer.js";
import { report, scratchDir } from "./benchTools.js";

const DURATION_S = 5;
const CONNECTIONS = 20;

async function rate(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

const home = path.join(scratchDir("throughput"), "home");
const dev = initHome({ home, chainId: "devnet-1", accounts: 10, denom: "uhub" });
const codec = new Codec();
const node = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "bench", codec });
const api = {
  enable: true, address: "tcp://127.0.0.1:0", swagger: false, "max-open-connections": 0,
  "rpc-read-timeout": 10, "rpc-write-timeout": 0, "rpc-max-body-bytes": 1_000_000, "enabled-unsafe-cors": false, "answer-cache-mb": 32,
};
const rest = await startRestServer(api, "hub", new InProcessClient(node), codec);
const routes = [`/core/bank/v1beta1/params`, `/core/bank/v1beta1/balances/${dev.accounts[0]!.address}`, `/core/staking/v1beta1/validators`];

// The baseline: the same answers, prepared once, served by a bare Koa app.
const bodies = new Map<string, string>();
for (const route of routes) bodies.set(route, await (await fetch(rest.url + route)).text());
const baseline = new Koa();
baseline.use((ctx) => {
  ctx.type = "application/json";
  ctx.body = bodies.get(ctx.path) ?? "{}";
});
const baseServer = http.createServer(baseline.callback());
await new Promise<void>((resolve) => baseServer.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(baseServer.address() as { port: number }).port}`;

const rows: Array<[string, string]> = [];
for (const route of routes) {
  const engine = await rate(rest.url + route);
  const bare = await rate(baseUrl + route.split("?")[0]);
  rows.push([route.replace(/hub1\w+/, "{address}"), `${engine.toFixed(0)} req/s vs ${bare.toFixed(0)} req/s bare Koa = ${(engine / bare).toFixed(2)}x`]);
}
report(`REST throughput (${CONNECTIONS} connections, ${DURATION_S} s each)`, rows);
await rest.close();
baseServer.close();
await node.close();
