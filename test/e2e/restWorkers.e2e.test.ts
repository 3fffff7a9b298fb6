import { expect } from "chai";
import httpClient from "node:http";
import path from "node:path";
import { setApiSettings } from "../helpers/appToml.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { Scrape } from "../helpers/prometheusScrape.js";
import { runCliToEnd, startGateway, startNode, type RunningProcess } from "../helpers/processes.js";
import { enableTelemetry } from "../helpers/telemetryHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";

const WORKER_HEADER = "x-chain-rest-worker";
const HEIGHT_HEADER = "grpc-metadata-x-cosmos-block-height";

interface Answer {
  status: number;
  worker: string;
  height: number;
  body: any;
}

/** One request on a connection of its own: the shared socket hands each new connection to the next worker. */
function ask(url: string, method = "GET", body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpClient.request(url, { method, agent: false, headers: body ? { "content-type": "application/json" } : {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, worker: String(res.headers[WORKER_HEADER]), height: Number(res.headers[HEIGHT_HEADER]), body: JSON.parse(text) }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Asks `route` until every worker has answered it at least `times` times (the
 * answer cache keeps an answer at its second ask and reuses it from the third).
 * Bounded by the test's timeout, not by a clock.
 */
async function askEveryWorker(route: string, workers: number, times: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  const seen = new Map<string, number>();
  while (seen.size < workers || [...seen.values()].some((n) => n < times)) {
    const answer = await ask(route);
    expect(answer.status).to.equal(200);
    answers.push(answer);
    seen.set(answer.worker, (seen.get(answer.worker) ?? 0) + 1);
  }
  return answers;
}

/** Opens GET /events on a connection of its own; resolves with the worker that answered and the first event's data line. */
function firstEvent(url: string): Promise<{ worker: string; event: Promise<string>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpClient.get(url, { agent: false }, (res) => {
      let text = "";
      const event = new Promise<string>((found) => {
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
          const data = /^data: (.*)$/m.exec(text);
          if (data) found(data[1]!);
        });
      });
      resolve({ worker: String(res.headers[WORKER_HEADER]), event, close: () => req.destroy() });
    });
    req.on("error", reject);
  });
}

interface Server {
  restUrl: string;
  rpcUrl: string;
  stop(): Promise<void>;
}

/** Sends 555uhub from account 0 to 1 (sequence `sequence`) and waits for its block: over the REST port, or the node's RPC. */
async function sendAndCommit(server: Server, a: TestSigner, b: TestSigner, sequence: number, via: "rest" | "rpc"): Promise<number> {
  const tx = Buffer.from(await directTx(a, { messages: [send(a.address, b.address, "555")], sequence, accountNumber: 0 })).toString("base64");
  if (via === "rest") {
    const r = await ask(`${server.restUrl}/core/tx/v1beta1/txs`, "POST", JSON.stringify({ tx_bytes: tx, mode: "BROADCAST_MODE_BLOCK" }));
    expect(r.body.tx_response?.code, JSON.stringify(r.body)).to.equal(0);
    return Number(r.body.tx_response.height);
  }
  const r = await ask(server.rpcUrl, "POST", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "broadcast_tx_commit", params: { tx } }));
  expect(r.body.result?.deliver_tx, JSON.stringify(r.body)).to.be.an("object");
  expect(r.body.result.deliver_tx.code ?? 0, JSON.stringify(r.body)).to.equal(0); // 0 is left out, as the engine's JSON does
  return Number(r.body.result.height);
}

const WORKERS = 2;

describe("e2e: api.workers = 2 (REST workers sharing the listening socket)", function () {
  this.timeout(180_000);

  const cases: Array<{ title: string; start: () => Promise<Server>; commitsVia: Array<"rest" | "rpc">; events?: boolean }> = [
    {
      title: "start",
      commitsVia: ["rest", "rpc", "rest"],
      events: true, // subscriptions cross the channel to the node's process
      start: async () => {
        const home = path.join(tempDir(), "home");
        expect((await runCliToEnd(["init", "--home", home, "--mnemonic", TEST_MNEMONIC])).code).to.equal(0);
        setApiSettings(home, { workers: WORKERS });
        enableTelemetry(home);
        const node = await startNode(home);
        return { restUrl: node.restUrl, rpcUrl: node.rpcUrl, stop: () => stopped(node.proc) };
      },
    },
    {
      title: "gateway --node",
      // a commit the client learns from the node itself reaches a gateway by its NewBlock event, workers or not
      commitsVia: ["rest", "rest", "rest"],
      start: async () => {
        const home = path.join(tempDir(), "home");
        expect((await runCliToEnd(["init", "--home", home, "--mnemonic", TEST_MNEMONIC])).code).to.equal(0);
        const node = await startNode(home);
        const gatewayHome = path.join(tempDir(), "gateway-home");
        expect((await runCliToEnd(["init", "--home", gatewayHome])).code).to.equal(0);
        setApiSettings(gatewayHome, { workers: WORKERS });
        enableTelemetry(gatewayHome);
        const gateway = await startGateway(gatewayHome, node.rpcUrl);
        return {
          restUrl: gateway.restUrl,
          rpcUrl: node.rpcUrl,
          stop: async () => {
            await stopped(gateway.proc);
            await stopped(node.proc);
          },
        };
      },
    },
  ];

  for (const { title, start, commitsVia, events } of cases) {
    describe(title, () => {
      let server: Server;
      before(async () => {
        server = await start();
      });
      after(async () => {
        await server?.stop();
      });

      it("no worker answers from before a commit once the commit is known, though each reused the answer until then", async () => {
        const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
        const route = `${server.restUrl}/core/bank/v1beta1/balances/${b.address}/uhub`;
        let expected = BigInt((await ask(route)).body.balance.amount);
        let asked = 1;
        for (const [sequence, via] of commitsVia.entries()) {
          asked += (await askEveryWorker(route, WORKERS, 3)).length; // each worker now answers it from memory
          const committedAt = await sendAndCommit(server, a, b, sequence, via);
          expected += 555n;
          const after = await askEveryWorker(route, WORKERS, 2);
          asked += after.length;
          for (const answer of after) {
            expect(BigInt(answer.body.balance.amount), `worker ${answer.worker} after the commit at ${committedAt} (${via})`).to.equal(expected);
            expect(answer.height).to.be.at.least(committedAt);
          }
        }
        // the cache was really used (else this test proves nothing), and /metrics counts every worker's requests
        const scrape = await Scrape.of(server.restUrl);
        expect(scrape.value("chain_rest_api_answer_cache_hits_total", { chain_id: "devnet-1" })).to.be.greaterThan(0);
        const balances = scrape.value("chain_rest_api_requests_total", {
          chain_id: "devnet-1",
          family: "gateway",
          route: "/core/bank/v1beta1/balances/{address}/{denom}",
          method: "GET",
          status: "200",
        });
        expect(balances).to.equal(asked);
      });

      if (events)
        it("GET /events streams the node's events from every worker", async () => {
          const [c, d] = await Promise.all([testSigner(TEST_MNEMONIC, 2), testSigner(TEST_MNEMONIC, 3)]);
          const query = encodeURIComponent(`tm.event='Tx' AND transfer.recipient='${d.address}'`);
          const streams = new Map<string, Awaited<ReturnType<typeof firstEvent>>>();
          while (streams.size < WORKERS) {
            const stream = await firstEvent(`${server.restUrl}/events?query=${query}`);
            if (streams.has(stream.worker)) stream.close();
            else streams.set(stream.worker, stream);
          }
          try {
            const tx = Buffer.from(await directTx(c, { messages: [send(c.address, d.address, "555")], sequence: 0, accountNumber: 2 })).toString("base64");
            const r = await ask(`${server.restUrl}/core/tx/v1beta1/txs`, "POST", JSON.stringify({ tx_bytes: tx, mode: "BROADCAST_MODE_BLOCK" }));
            expect(r.body.tx_response?.code, JSON.stringify(r.body)).to.equal(0);
            for (const [worker, stream] of streams) {
              const event = JSON.parse(await stream.event) as { data: { type: string } };
              expect(event.data.type, `worker ${worker}`).to.equal("tendermint/event/Tx");
            }
          } finally {
            for (const stream of streams.values()) stream.close();
          }
        });
    });
  }
});

async function stopped(proc: RunningProcess): Promise<void> {
  expect(await proc.stop()).to.equal(0);
}
