import { expect } from "chai";
import http from "node:http";
import zlib from "node:zlib";
import { startRestServer } from "../../src/commands/restServer.js";
import { loadAppConfig } from "../../src/config/appConfig.js";
import { COMPRESS_FROM_BYTES } from "../../src/http/compression.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import { Telemetry } from "../../src/telemetry/telemetry.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { openDevNode } from "../helpers/devNode.js";
import { pollUntil } from "../helpers/poll.js";
import { Scrape } from "../helpers/prometheusScrape.js";
import { enableTelemetry } from "../helpers/telemetryHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

const COMPRESSIONS = "chain_rest_api_compressions_total";

/** A GET over node:http, which neither asks for nor undoes compression: the bytes as sent. */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; encoding?: string; bytes: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, encoding: res.headers["content-encoding"], bytes: Buffer.concat(chunks), headers: res.headers }),
        );
      })
      .on("error", reject);
  });
}

/** Counted, not timed: the compressions the server reports (api_compressions_total) around requests. */
describe("compression: an answer served again is compressed once per coding", function () {
  this.timeout(120_000);
  let node: EmbeddedNode;
  let rest: RunningServer;
  const compressions = async (encoding: string) => (await Scrape.of(rest.url)).value(COMPRESSIONS, { encoding });

  before(async () => {
    ({ node } = await openDevNode({ accounts: 12 }));
    const home = tempDir();
    enableTelemetry(home); // app.toml's defaults with [telemetry] on, the Prometheus format served
    const telemetry = new Telemetry(loadAppConfig(home).telemetry);
    rest = await startRestServer(testApiConfig({ swagger: false }), "hub", new InProcessClient(node), node.codec, undefined, { telemetry });
  });
  after(async () => {
    await rest?.close();
    await node?.close();
  });

  // a page size of each test's own: no answer is shared between the two
  for (const [encoding, decode, limit] of [
    ["br", zlib.brotliDecompressSync, 8],
    ["gzip", zlib.gunzipSync, 10],
  ] as const) {
    it(`${encoding}: the same page asked four times (first asks, then the answer cache's) is compressed once; another page once more`, async () => {
      const page = `/core/auth/v1beta1/accounts?pagination.limit=${limit}`;
      const identity = (await get(rest.url + page)).bytes;
      expect(identity.length, "the page is over the threshold").to.be.at.least(COMPRESS_FROM_BYTES);
      const before = await compressions(encoding);
      const sent: Buffer[] = [];
      for (let ask = 0; ask < 4; ask++) {
        const r = await get(rest.url + page, { "accept-encoding": encoding });
        expect(r.status).to.equal(200);
        expect(r.encoding).to.equal(encoding);
        expect(decode(r.bytes).equals(identity)).to.equal(true);
        sent.push(r.bytes);
      }
      expect(await compressions(encoding)).to.equal(before + 1);
      expect(sent.every((bytes) => bytes.equals(sent[0]!))).to.equal(true);

      // another answer is another compression: the count follows the work done
      const other = await get(`${rest.url}/core/auth/v1beta1/accounts?pagination.limit=${limit + 1}`, { "accept-encoding": encoding });
      expect(other.encoding).to.equal(encoding);
      expect(await compressions(encoding)).to.equal(before + 2);
    });
  }

  it("a page computed again after the height moved (the answer cache emptied), with the same text, is not compressed again", async () => {
    const page = "/core/auth/v1beta1/accounts?pagination.limit=6";
    const asked = () => get(rest.url + page, { "accept-encoding": "br" });
    const first = await asked();
    await asked(); // kept by the answer cache at its second ask
    const before = await compressions("br");
    const height = (r: { headers: Record<string, string | string[] | undefined> }) => Number(r.headers["grpc-metadata-x-cosmos-block-height"]);
    const committed = Number((await node.produceBlock()).block.block.header.height);
    // the answer cache empties at the commit notice: poll until the page is answered at the new height
    const again = await pollUntil(asked, (r) => height(r) === committed);
    expect(height(first)).to.be.lessThan(committed);
    expect(again.bytes.equals(first.bytes)).to.equal(true);
    expect(await compressions("br")).to.equal(before);
  });
});
