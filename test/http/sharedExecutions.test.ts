import { expect } from "chai";
import { startRestServer } from "../../src/commands/restServer.js";
import type { ListeningServer } from "../../src/server/httpServer.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { GatedClient } from "../helpers/gatedClient.js";
import { Telemetry } from "../../src/telemetry/telemetry.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { openDevNode } from "../helpers/devNode.js";
import { http, type HttpAnswer } from "../helpers/http.js";
import { Scrape } from "../helpers/prometheusScrape.js";
import { testApiConfig } from "../helpers/testApiConfig.js";
import { TEST_TELEMETRY } from "../helpers/testTelemetry.js";
import type { HeightFloorState } from "../../src/http/sharedExecutions.js";

const N = 24;

describe("one execution per identical question", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  let client: GatedClient;
  let rest: RunningServer & { listening: ListeningServer };
  /** The same, with a request scope as a multi-node gateway's sets it: the connection's height floor, here from a test header. */
  let scoped: RunningServer & { listening: ListeningServer };

  before(async () => {
    ({ node, addresses } = await openDevNode());
    client = new GatedClient(node);
    const telemetry = new Telemetry(TEST_TELEMETRY);
    // no answer cache: every request here is a cold one
    rest = await startRestServer(testApiConfig({ swagger: false, "answer-cache-mb": 0 }), "hub", client, node.codec, undefined, { telemetry });
    scoped = await startRestServer(testApiConfig({ swagger: false, "answer-cache-mb": 0 }), "hub", client, node.codec, undefined, {
      telemetry: new Telemetry(TEST_TELEMETRY),
      requestScope: (ctx, next) => {
        (ctx.state as HeightFloorState).heightFloor = Number(ctx.get("x-test-floor"));
        return next();
      },
    });
  });
  after(async () => {
    await scoped.close();
    await rest.close();
    await node.close();
  });

  const executions = async (server = rest) => (await Scrape.of(server.url)).value("chain_rest_api_query_executions_total");

  /** Sends every request at once, the node held until the server has read them all (and run a turn past that). */
  async function atOnce(requests: Array<{ route: string; headers?: Record<string, string> }>, server = rest): Promise<HttpAnswer[]> {
    client.close();
    let seen = 0;
    const arrived = new Promise<void>((resolve) => {
      const onRequest = () => {
        if (++seen < requests.length) return;
        server.listening.server.off("request", onRequest);
        setImmediate(resolve);
      };
      server.listening.server.on("request", onRequest);
    });
    const answers = Promise.all(requests.map((r) => http(server.url + r.route, { headers: r.headers ?? {} })));
    await arrived;
    client.openGate();
    return answers;
  }

  it("answers N identical cold gateway GETs with one execution, the same bytes to each, each request counted", async () => {
    const route = `/core/bank/v1beta1/balances/${addresses[0]}`;
    const before = await Scrape.of(rest.url);
    const answers = await atOnce(Array.from({ length: N }, () => ({ route })));
    const after = await Scrape.of(rest.url);
    for (const a of answers) {
      expect(a.status, a.text).to.equal(200);
      expect(a.text).to.equal(answers[0]!.text);
      expect(a.headers.get("grpc-metadata-x-cosmos-block-height")).to.equal(answers[0]!.headers.get("grpc-metadata-x-cosmos-block-height"));
    }
    expect(after.value("chain_rest_api_query_executions_total") - before.value("chain_rest_api_query_executions_total")).to.equal(1);
    expect(after.value("chain_rest_api_shared_answers_total") - before.value("chain_rest_api_shared_answers_total")).to.equal(N - 1);
    const labels = { family: "gateway", route: "/core/bank/v1beta1/balances/{address}", method: "GET", status: "200" };
    expect(after.value("chain_rest_api_requests_total", labels) - before.value("chain_rest_api_requests_total", labels)).to.equal(N);
  });

  it("shares a legacy route's execution too", async () => {
    const route = `/bank/balances/${addresses[1]}`;
    const before = await executions();
    const answers = await atOnce(Array.from({ length: N }, () => ({ route })));
    for (const a of answers) expect(a.text).to.equal(answers[0]!.text);
    expect(answers[0]!.status).to.equal(200);
    expect((await executions()) - before).to.equal(1);
  });

  it("shares an error, and keeps it no longer than its execution", async () => {
    const route = `/core/bank/v1beta1/balances/${addresses[2]}`;
    const headers = { "x-cosmos-block-height": String(node.height + 1000) }; // a height the chain has not reached
    const before = await executions();
    const answers = await atOnce(Array.from({ length: N }, () => ({ route, headers })));
    for (const a of answers) {
      expect(a.status).to.be.at.least(400);
      expect(a.text).to.equal(answers[0]!.text);
    }
    expect((await executions()) - before).to.equal(1);
    const again = await http(rest.url + route, { headers });
    expect(again.text).to.equal(answers[0]!.text);
    expect((await executions()) - before).to.equal(2); // asked again after it ended: run again
  });

  it("runs different questions (another parameter, another height) each", async () => {
    const before = await executions();
    const h = String(node.height);
    const answers = await atOnce([
      { route: `/core/bank/v1beta1/balances/${addresses[3]}` },
      { route: `/core/bank/v1beta1/balances/${addresses[4]}` },
      { route: `/core/bank/v1beta1/balances/${addresses[3]}`, headers: { "x-cosmos-block-height": h } },
    ]);
    for (const a of answers) expect(a.status, a.text).to.equal(200);
    expect((await executions()) - before).to.equal(3);
  });

  it("shares an execution only among requests of the same connection height floor (several nodes: no answer below a floor)", async () => {
    const route = `/core/bank/v1beta1/balances/${addresses[2]}?floor=test`;
    const before = await executions(scoped);
    const answers = await atOnce(
      [
        { route, headers: { "x-test-floor": "0" } },
        { route, headers: { "x-test-floor": "0" } },
        { route, headers: { "x-test-floor": String(node.height) } },
      ],
      scoped,
    );
    for (const a of answers) expect(a.status, a.text).to.equal(200);
    expect((await executions(scoped)) - before, "the two floors run apart, the two requests of one floor together").to.equal(2);
  });
});
