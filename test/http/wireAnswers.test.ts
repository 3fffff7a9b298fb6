import { expect } from "chai";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import { flushLogger, type Logger } from "../../src/telemetry/logger.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { openDevNode } from "../helpers/devNode.js";
import { headLines as head, logLineShape, rawGet, requestLogLines } from "../helpers/rawAnswer.js";
import type { Scrape } from "../helpers/prometheusScrape.js";
import { loggedRestServer } from "../helpers/loggedRestServer.js";

describe("kept answers written without Koa (wireAnswers.ts)", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  let rest: RunningServer;
  let logger: Logger;
  let logFile: string;
  let scrape: () => Promise<Scrape>;

  before(async () => {
    ({ node, addresses } = await openDevNode());
    ({ rest, logger, logFile, scrape } = await loggedRestServer(new InProcessClient(node), node.codec));
  });
  after(async () => {
    await rest.close();
    await node.close();
  });

  const written = async () => (await scrape()).value("chain_rest_api_answer_cache_written_total");

  for (const [shape, headers] of [
    ["no Origin", {}],
    ["an Origin (CORS headers)", { Origin: "https://wallet.example" }],
    ["Accept-Encoding on a small body (never compressed)", { "Accept-Encoding": "gzip, br" }],
  ] as const) {
    it(`answers with ${shape} byte for byte as the Koa layers did, from the second reuse on`, async () => {
      for (const route of [`/core/bank/v1beta1/balances/${addresses[0]}`, `/bank/balances/${addresses[0]}`, "/core/bank/v1beta1/params"]) {
        const url = `${rest.url}${route}?shape=${encodeURIComponent(shape)}`;
        await rawGet(url, headers); // asked once
        await rawGet(url, headers); // asked again: kept
        const throughKoa = await rawGet(url, headers); // reused through the layers: its head is learned
        const before = await written();
        const direct = await rawGet(url, headers);
        expect(await written(), `${route} written without Koa`).to.equal(before + 1);
        expect(direct.status).to.equal(200);
        expect(head(direct), route).to.deep.equal(head(throughKoa));
        expect(direct.body).to.equal(throughKoa.body);
      }
    });
  }

  it("leaves revalidation, pinned heights and compressible bodies to the Koa layers", async () => {
    const route = `${rest.url}/core/bank/v1beta1/balances/${addresses[1]}`;
    for (let i = 0; i < 3; i++) await rawGet(route);
    const etag = head(await rawGet(route))
      .find((line) => line.startsWith("ETag: "))!
      .slice("ETag: ".length);
    const before = await written();
    expect((await rawGet(route, { "If-None-Match": etag })).status).to.equal(304);
    const pinned = await rawGet(route, { "x-cosmos-block-height": String(node.height) });
    expect(
      head(pinned).some((line) => line.includes("immutable")),
      "a pinned answer's Cache-Control",
    ).to.equal(true);
    expect(await written(), "none of these written without Koa").to.equal(before);

    const big = `${rest.url}/core/auth/v1beta1/accounts?pagination.limit=20`;
    for (let i = 0; i < 4; i++) await rawGet(big, { "Accept-Encoding": "gzip" });
    const compressed = await rawGet(big, { "Accept-Encoding": "gzip" });
    expect(head(compressed)).to.include("Content-Encoding: gzip");
    expect(await written(), "a body the client may get compressed").to.equal(before);
  });

  it("counts and logs a written answer as the Koa path does", async () => {
    const route = "/core/bank/v1beta1/supply";
    for (let i = 0; i < 4; i++) await rawGet(rest.url + route);
    await flushLogger(logger);
    const lines = requestLogLines(logFile, route);
    expect(lines).to.have.length(4);
    expect(logLineShape(lines[3]!), "the written answer's line").to.deep.equal(logLineShape(lines[2]!));
    expect(lines[3]).to.include({ cached: true, status: 200, height: node.height });
    const counts = await scrape();
    expect(counts.value("chain_rest_api_requests_total", { route, method: "GET", status: "200" })).to.equal(4);
    // a fresh question: asked, kept, reused through Koa (learned), then written twice: three hits
    const fresh = `${rest.url}/core/bank/v1beta1/supply?hits=counted`;
    const hits = counts.value("chain_rest_api_answer_cache_hits_total");
    for (let i = 0; i < 5; i++) await rawGet(fresh);
    expect((await scrape()).value("chain_rest_api_answer_cache_hits_total") - hits, "each reuse is one hit").to.equal(3);
  });
});
