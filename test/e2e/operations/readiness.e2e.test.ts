import { expect } from "chai";
import net from "node:net";
import path from "node:path";
import { http, type HttpAnswer } from "../../helpers/http.js";
import { pollUntil } from "../../helpers/poll.js";
import { startGateway, startNode, type RunningProcess, type StartedNode } from "../../helpers/processes.js";
import { initDevHome } from "../../helpers/devHome.js";
import { Scrape } from "../../helpers/prometheusScrape.js";
import { freshRequest } from "../../helpers/rawHttp.js";
import { tempDir } from "../../helpers/tempDir.js";
import { enableTelemetry } from "../../helpers/telemetryHome.js";
import { freePort } from "../../helpers/freePort.js";

/**
 * A balancer in front of `gateway --node`: /readyz turns 503 when the node
 * stops (each probe is answered within api.rpc-read-timeout, so polling ends),
 * and 200 again once it is back; the upstream metrics follow the subscription.
 */
describe("e2e: /healthz and /readyz behind `gateway --node` while the node stops and returns", function () {
  this.timeout(120_000);
  const nodeHome = path.join(tempDir(), "node");
  const gatewayHome = path.join(tempDir(), "gateway");
  let rpcAddress: string;
  let node: StartedNode | undefined;
  let gateway: { proc: RunningProcess; restUrl: string };

  const readyz = (query = "") => http(`${gateway.restUrl}/readyz${query}`);
  const pollReadyz = (status: number) =>
    pollUntil(
      () => readyz(),
      (r: HttpAnswer) => r.status === status,
    );
  const startTheNode = async () => (node = await startNode(nodeHome, ["--rpc.laddr", rpcAddress]));

  before(async () => {
    initDevHome(nodeHome);
    rpcAddress = `tcp://127.0.0.1:${await freePort()}`;
    await startTheNode();
    // the gateway's own home: telemetry on, a short read timeout for the node's answers
    enableTelemetry(gatewayHome, (text) => text.replace(/^rpc-read-timeout = 10$/m, "rpc-read-timeout = 2"));
    gateway = await startGateway(gatewayHome, node!.rpcUrl, ["--log-format", "json"]);
  });
  after(async () => {
    await gateway?.proc.stop();
    await node?.proc.stop();
  });

  it("answers /healthz, and /readyz 200 once the NewBlock subscription is up", async () => {
    const health = await http(`${gateway.restUrl}/healthz`);
    expect(health.status).to.equal(200);
    expect(health.body).to.deep.equal({ status: "SERVING" });
    const ready = await pollReadyz(200);
    expect(ready.body.status).to.equal("SERVING");
    expect(Number(ready.body.height)).to.be.at.least(1);
    expect(Date.parse(ready.body.latest_block_time)).to.be.greaterThan(0);
    const scrape = await Scrape.of(gateway.restUrl);
    expect(scrape.value("chain_rest_upstream_subscription_up")).to.equal(1);
    expect(scrape.value("chain_rest_upstream_height")).to.equal(Number(ready.body.height));
    expect(scrape.histogramCount("chain_rest_upstream_request_duration_seconds", { method: "status" })).to.be.at.least(1);
  });

  it("refuses ?max_block_age that is not whole seconds, and is not ready when the latest block is older", async () => {
    for (const value of ["1e3", "-1", "", "%EF%BC%91", "1234567890", "9".repeat(10_000), "0x10", " 1"]) {
      const bad = await readyz(`?max_block_age=${value}`);
      expect(bad.status, value.slice(0, 20)).to.equal(400);
      expect(bad.body.code).to.equal(3);
    }
    // the dev chain makes no empty blocks: its one block is older than 0 s once a millisecond has passed
    const stale = await pollUntil(
      () => readyz("?max_block_age=0"),
      (r) => r.status !== 200,
    );
    expect(stale.status).to.equal(503);
    expect(stale.body.code).to.equal(14);
    expect(stale.body.message).to.match(/more than max_block_age 0 s/);
    expect((await readyz("?max_block_age=999999999")).status).to.equal(200);
  });

  it("counts refusals by cause: a head too large (431), a body too large (413), a request not sent in time (408)", async () => {
    const before = await Scrape.of(gateway.restUrl);
    // half a request head, then nothing: answered 408 once api.rpc-read-timeout (2 s here) has passed
    const { hostname, port } = new URL(gateway.restUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.write("GET /core/bank/v1beta1/params HTTP/1.1\r\nHost: x\r\n"));
      let text = "";
      socket.on("data", (chunk) => (text += chunk.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).to.match(/^HTTP\/1\.1 408 /);
    const big = await freshRequest(gateway.restUrl, "/core/bank/v1beta1/balances/x", { headers: { "x-padding": "a".repeat(20_000) } });
    expect(big.status).to.equal(431);
    const body = await http(`${gateway.restUrl}/core/tx/v1beta1/txs`, { method: "POST", body: "x".repeat(1_000_001) });
    expect(body.status).to.equal(413);
    const after = await Scrape.of(gateway.restUrl);
    const refusals = (s: Scrape, cause: string) => s.value("chain_rest_api_refusals_total", { cause });
    expect(refusals(after, "431") - refusals(before, "431")).to.equal(1);
    expect(refusals(after, "413") - refusals(before, "413")).to.equal(1);
    expect(refusals(after, "408") - refusals(before, "408")).to.equal(1);
    expect(refusals(after, "503") - refusals(before, "503")).to.equal(0);
    expect(after.value("chain_rest_api_connections_open")).to.be.at.least(1);
    expect(after.value("chain_rest_api_connections_waiting")).to.equal(0);
  });

  it("counts the 503 of a request that finds the line of waiting requests full (api.max-open-connections = 1)", async () => {
    const home = path.join(tempDir(), "gateway-one");
    enableTelemetry(home, (text) => text.replace(/^max-open-connections = 1000$/m, "max-open-connections = 1"));
    const one = await startGateway(home, node!.rpcUrl);
    try {
      const before = await Scrape.of(one.restUrl);
      const { hostname, port } = new URL(one.restUrl);
      const connect = () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(Number(port), hostname, () => resolve(socket));
          socket.on("error", reject);
        });
      // A holds the one place with a request in flight (its body not all sent); of B and C, whichever
      // request comes second finds the other waiting in the line (as long as max-open-connections) and is refused
      const a = await connect();
      a.write("POST /core/tx/v1beta1/txs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
      const answerOf = (socket: net.Socket) =>
        new Promise<string>((resolve) => {
          let text = "";
          socket.on("data", (chunk) => (text += chunk.toString()));
          socket.on("close", () => resolve(text));
        });
      const b = await connect();
      const c = await connect();
      const answers = [answerOf(b), answerOf(c)];
      b.write("GET /core/bank/v1beta1/params HTTP/1.1\r\nHost: x\r\n\r\n");
      c.write("GET /core/bank/v1beta1/params HTTP/1.1\r\nHost: x\r\n\r\n");
      const refused = await Promise.race(answers);
      expect(refused).to.match(/^HTTP\/1\.1 503 /);
      a.destroy();
      b.destroy();
      c.destroy();
      // until the server has seen A and B close, a scrape may be refused too: those refusals are counted as well
      let refusedScrapes = 0;
      const scraped = await pollUntil(
        () => http(`${one.restUrl}/metrics?format=prometheus`),
        (r) => r.status === 200 || (r.status === 503 && refusedScrapes++ < 0),
      );
      const after = new Scrape(scraped.text);
      const refusals = (s: Scrape) => s.value("chain_rest_api_refusals_total", { cause: "503" });
      expect(refusals(after) - refusals(before)).to.equal(1 + refusedScrapes);
      // the scrape's own, and the first scrape's if its client still keeps it alive (idle connections stay open)
      expect(after.value("chain_rest_api_connections_open")).to.be.within(1, 2);
    } finally {
      await one.proc.stop();
    }
  });

  it("turns /readyz 503 {code 14} when the node stops, and 200 again when it returns", async () => {
    await node!.proc.stop();
    node = undefined;
    const down = await pollReadyz(503);
    expect(down.body.code).to.equal(14);
    expect(down.body.message).to.match(/NewBlock subscription|unavailable/);
    expect((await http(`${gateway.restUrl}/healthz`)).status).to.equal(200); // the process still answers
    const whileDown = await Scrape.of(gateway.restUrl);
    expect(whileDown.value("chain_rest_upstream_subscription_up")).to.equal(0);

    await startTheNode();
    const up = await pollReadyz(200);
    expect(Number(up.body.height)).to.be.at.least(1);
    const after = await Scrape.of(gateway.restUrl);
    expect(after.value("chain_rest_upstream_subscription_up")).to.equal(1);
  });

  it("does not serve /metrics where telemetry is off (the node's own REST server): an unknown path", async () => {
    const r = await http(`${node!.restUrl}/metrics?format=prometheus`);
    expect(r.status).to.equal(501);
    expect(r.body).to.deep.equal({ code: 12, message: "Not Implemented", details: [] });
  });
});
