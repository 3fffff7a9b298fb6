/**
 * The REST engine in front of the embedded node on HOME, with the full route
 * tables or with only the gateway routes whose path is ONLY (the routing cost
 * of ~250 routes against one), answers not reused.
 *
 *   npx tsx bench/tableServer.ts HOME [ONLY]
 */
import { Codec } from "../src/codec/codec.js";
import { createRestApp } from "../src/server/restApp.js";
import { listen } from "../src/server/httpServer.js";
import { EmbeddedNode } from "../src/node/embeddedNode.js";
import { InProcessClient } from "../src/node/inProcessClient.js";
import { SERVICE_METHODS } from "../src/methods/index.js";
import { compileTables } from "../src/tables/compileTables.js";

const [home, only] = process.argv.slice(2) as [string, string | undefined];
const codec = new Codec();
const node = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "bench", codec });
const tables = compileTables(codec);
const app = createRestApp({
  gatewayRoutes: only ? tables.gateway.filter((r) => r.path === only) : tables.gateway,
  legacy: only ? undefined : tables.legacy,
  deps: { client: new InProcessClient(node), codec, services: SERVICE_METHODS, maxBodyBytes: 1_000_000, bech32Prefix: "hub" },
  cors: false,
  swagger: false,
});
const api = {
  enable: true,
  address: "tcp://127.0.0.1:0",
  swagger: false,
  "max-open-connections": 0,
  "max-idle-connections": 10_000,
  "rate-limit": 0,
  "rate-limit-burst": 0,
  "trusted-proxies": "",
  workers: 1,
  "rpc-read-timeout": 10,
  "rpc-write-timeout": 0,
  "rpc-max-body-bytes": 1_000_000,
  "enabled-unsafe-cors": false,
  "answer-cache-mb": 0,
  "log-requests": "off",
  "max-page-limit": 1000,
  "max-page-offset": 10_000,
  "max-count-total": 10_000,
  "disabled-routes": "",
  "route-weights": [],
  "cache-max-age": 0,
  "newer-routes": true,
};
const server = await listen(app, api);
console.log(`listening ${server.url} with ${only ? 1 : tables.gateway.length + tables.legacy.routes.length} routes`);
process.on("SIGTERM", () => {
  void Promise.all([server.close(), node.close()]).then(() => process.exit(0));
});
