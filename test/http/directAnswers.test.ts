import { expect } from "chai";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import type { ListeningServer } from "../../src/server/httpServer.js";
import { GatedClient } from "../helpers/gatedClient.js";
import { flushLogger, type Logger } from "../../src/telemetry/logger.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { openDevNode } from "../helpers/devNode.js";
import { headLines as head, logLineShape, rawGet, requestLogLines } from "../helpers/rawAnswer.js";
import type { Scrape } from "../helpers/prometheusScrape.js";
import { loggedRestServer } from "../helpers/loggedRestServer.js";

describe("first asks written without Koa (directAnswers.ts)", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  let rest: RunningServer & { listening: ListeningServer };
  let client: GatedClient;
  let logger: Logger;
  let logFile: string;
  let scrape: () => Promise<Scrape>;

  before(async () => {
    ({ node, addresses } = await openDevNode({ accounts: 40 }));
    client = new GatedClient(node);
    ({ rest, logger, logFile, scrape } = await loggedRestServer(client, node.codec));
  });
  after(async () => {
    await rest.close();
    await node.close();
  });

  const counts = async () => {
    const s = await scrape();
    return {
      written: s.value("chain_rest_api_direct_answers_total"),
      handedOn: s.value("chain_rest_api_direct_answers_handed_on_total"),
      executions: s.value("chain_rest_api_query_executions_total"),
    };
  };

  it("answers a first ask byte for byte as the Koa layers answer the same question", async () => {
    const routes = [
      (i: number) => `/core/bank/v1beta1/balances/${addresses[i]}`,
      (i: number) => `/core/bank/v1beta1/params?n=${i}`,
      (i: number) => `/core/auth/v1beta1/accounts/${addresses[i]}`,
    ];
    for (const route of routes) {
      await rawGet(rest.url + route(0)); // the route's first answer: through the layers, its head learned
      const before = await counts();
      const direct = await rawGet(rest.url + route(1));
      const after = await counts();
      expect(after.written, `${route(1)} written without Koa`).to.equal(before.written + 1);
      expect(after.executions, "one query").to.equal(before.executions + 1);
      const throughKoa = await rawGet(rest.url + route(1)); // asked again: the layers answer (and keep) it
      expect(await counts(), "the second ask is the layers'").to.include({ written: after.written });
      expect(direct.status).to.equal(200);
      expect(head(direct), route(1)).to.deep.equal(head(throughKoa));
      expect(direct.body).to.equal(throughKoa.body);
    }
  });

  it("leaves legacy paths, CORS requests, pinned heights and unplain paths to the Koa layers", async () => {
    await rawGet(`${rest.url}/core/bank/v1beta1/balances/${addresses[2]}`);
    const before = await counts();
    const asks: Array<[string, Record<string, string>]> = [
      [`/bank/balances/${addresses[3]}`, {}],
      [`/core/bank/v1beta1/balances/${addresses[4]}`, { Origin: "https://wallet.example" }],
      [`/core/bank/v1beta1/balances/${addresses[5]}`, { "x-cosmos-block-height": String(node.height) }],
      [`/core/bank/v1beta1/balances/${addresses[6]}/`, {}],
      [`/core/bank/v1beta1/balances/${addresses[8]!.replace("h", "%68")}`, {}],
    ];
    for (const [route, headers] of asks) expect((await rawGet(rest.url + route, headers)).status, route).to.equal(200);
    expect((await counts()).written, "none written without Koa").to.equal(before.written);
  });

  it("hands a failure to the Koa layers, which answer it as their own, the query run once", async () => {
    const route = `/core/bank/v1beta1/balances/${addresses[9]}?pagination.limit=notanumber`;
    const before = await counts();
    const direct = await rawGet(rest.url + route);
    const after = await counts();
    expect(after.handedOn, "handed on").to.equal(before.handedOn + 1);
    expect(after.written).to.equal(before.written);
    const again = await rawGet(rest.url + route);
    expect(direct.status).to.equal(400);
    expect(head(direct)).to.deep.equal(head(again));
    expect(direct.body).to.equal(again.body);
  });

  it("hands a body large enough to compress to the Koa layers, which compress it", async () => {
    await rawGet(`${rest.url}/core/auth/v1beta1/accounts?pagination.limit=1`); // the route's head, learned from a small answer
    const before = await counts();
    const big = await rawGet(`${rest.url}/core/auth/v1beta1/accounts?pagination.limit=30`, { "Accept-Encoding": "gzip" });
    const after = await counts();
    expect(big.status).to.equal(200);
    expect(head(big)).to.include("Content-Encoding: gzip");
    expect(after.handedOn, "handed on").to.equal(before.handedOn + 1);
    expect(after.executions, "one query").to.equal(before.executions + 1);
  });

  it("shares one execution among identical first asks asked at once", async () => {
    const route = `/core/bank/v1beta1/balances/${addresses[10]}`;
    await rawGet(`${rest.url}/core/bank/v1beta1/balances/${addresses[11]}`);
    const before = await counts();
    // the node held until the server has read all twelve (and run a turn past that)
    client.close();
    let seen = 0;
    const arrived = new Promise<void>((resolve) => {
      const onRequest = () => {
        if (++seen < 12) return;
        rest.listening.server.off("request", onRequest);
        setImmediate(resolve);
      };
      rest.listening.server.on("request", onRequest);
    });
    const asked = Promise.all(Array.from({ length: 12 }, () => rawGet(rest.url + route)));
    await arrived;
    client.openGate();
    const answers = await asked;
    const after = await counts();
    expect(after.executions, "one query for the twelve").to.equal(before.executions + 1);
    expect(after.written, "the first written without Koa").to.equal(before.written + 1);
    for (const answer of answers) {
      expect(answer.status).to.equal(200);
      expect(answer.body).to.equal(answers[0]!.body);
      expect(head(answer)).to.deep.equal(head(answers[0]!));
    }
  });

  it("counts and logs a written answer as the Koa path counts a first ask", async () => {
    const template = "/core/bank/v1beta1/balances/{address}";
    const countOf = async () => (await scrape()).value("chain_rest_api_requests_total", { route: template, method: "GET", status: "200" });
    await rawGet(`${rest.url}/core/bank/v1beta1/balances/${addresses[12]}`);
    const before = await countOf();
    const written = (await counts()).written;
    await rawGet(`${rest.url}/core/bank/v1beta1/balances/${addresses[13]}`);
    expect((await counts()).written).to.equal(written + 1);
    expect(await countOf()).to.equal(before + 1);
    await flushLogger(logger);
    const lines = requestLogLines(logFile, template);
    expect(logLineShape(lines.at(-1)!), "the written answer's line").to.deep.equal(logLineShape(lines.at(-2)!));
    expect(lines.at(-1)).to.include({ cached: false, status: 200, height: node.height });
  });
});
