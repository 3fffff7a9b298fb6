import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { load as loadYaml, dump as dumpYaml } from "js-yaml";
import { Codec } from "../../src/codec/codec.js";
import { listen } from "../../src/server/httpServer.js";
import { createRestApp } from "../../src/server/restApp.js";
import { loadAminoTransforms } from "../../src/tables/aminoTransforms.js";
import { loadLegacyRoutes } from "../../src/tables/compileLegacyRoutes.js";
import { loadRoutes } from "../../src/tables/compileRoutes.js";
import { http } from "../helpers/http.js";
import { replayClient } from "../helpers/replayClient.js";
import { tempDir, writeFile } from "../helpers/tempDir.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

/**
 * The conformance cases of the route tables (test/tables/conformance/<table>/*.yaml; the format
 * is in their README.md): each entry is served by the real engine over HTTP, in front of a node
 * that answers from the case's recorded answers, and must answer exactly the expected body.
 */
interface ConformanceCase {
  description: string;
  entry: Record<string, unknown>;
  answers?: Record<string, unknown>;
  request: string;
  body?: unknown;
  asks?: Record<string, unknown>;
  expect: { status: number; body: unknown };
}

const DIR = path.join(path.dirname(new URL(import.meta.url).pathname), "conformance");
const codec = new Codec();
const transforms = loadAminoTransforms();

for (const table of ["gateway", "legacy"] as const) {
  describe(`route table conformance cases: ${table}`, () => {
    for (const file of fs
      .readdirSync(path.join(DIR, table))
      .filter((f) => f.endsWith(".yaml"))
      .sort()) {
      const cases = loadYaml(fs.readFileSync(path.join(DIR, table, file), "utf8")) as ConformanceCase[];
      for (const c of cases) {
        it(`${file}: ${c.description}`, async () => {
          const tableFile = writeFile(tempDir(), `${table === "gateway" ? "routes" : "legacy-routes"}.yaml`, dumpYaml([c.entry]));
          const client = replayClient(codec, c.answers ?? {});
          const app = createRestApp({
            gatewayRoutes: table === "gateway" ? loadRoutes(tableFile, codec.root) : [],
            legacy: table === "legacy" ? { routes: loadLegacyRoutes(tableFile, codec.root, transforms), transforms } : undefined,
            deps: { client, codec, services: new Map(), maxBodyBytes: 100_000, bech32Prefix: "hub" },
            cors: false,
          });
          const server = await listen(app, testApiConfig({}));
          try {
            const [verb, target] = c.request.split(" ") as [string, string];
            const init: RequestInit = { method: verb };
            if (c.body !== undefined) init.body = JSON.stringify(c.body);
            const answer = await http(`${server.url}${target}`, init);
            expect({ status: answer.status, body: answer.body }).to.deep.equal(c.expect);
            if (c.asks) expect(Object.fromEntries(client.asked.map((a) => [a.method, a.request]))).to.deep.equal(c.asks);
          } finally {
            await server.close();
          }
        });
      }
    }
  });
}
