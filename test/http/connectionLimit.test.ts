import { expect } from "chai";
import http from "node:http";
import Koa from "koa";
import { listen, type ListeningServer } from "../../src/server/httpServer.js";
import type { ApiConfig } from "../../src/config/appConfig.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { freshRequest, rawSocket, splitResponses, type FreshAnswer, type RawSocket } from "../helpers/rawHttp.js";
import { pollUntil } from "../helpers/poll.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

/**
 * The connection gate through listen(): a Koa app whose /hold{n} requests are
 * answered only when the test releases them, so that places are held exactly
 * as long as a test wants.
 */
describe("connection gate: api.max-open-connections limits requests in flight and late heads, not open connections", function () {
  this.timeout(20_000);
  const servers: RunningServer[] = [];
  const held = new Map<string, () => void>();
  afterEach(async () => {
    for (const release of held.values()) release();
    held.clear();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function start(api: Partial<ApiConfig>) {
    const seen: string[] = [];
    const signals = new Map<string, { arrived: Promise<void>; arrive: () => void }>();
    const signal = (id: string) => {
      if (!signals.has(id)) {
        let arrive!: () => void;
        const arrived = new Promise<void>((resolve) => (arrive = resolve));
        signals.set(id, { arrived, arrive });
      }
      return signals.get(id)!;
    };
    const app = new Koa();
    app.use(async (ctx) => {
      const id = ctx.path.slice(1);
      seen.push(id);
      signal(id).arrive();
      if (id.startsWith("hold")) await new Promise<void>((resolve) => held.set(id, resolve));
      ctx.body = { id };
    });
    const server = await listen(app, testApiConfig(api));
    servers.push(server);
    return { url: server.url, server, seen, arrival: (id: string) => signal(id).arrived, release: (id: string) => held.get(id)!() };
  }

  /** Until the gate counts this many requests waiting for a place. */
  const waiting = (s: { server: ListeningServer }, count: number) =>
    pollUntil(
      async () => s.server.connections().waiting,
      (n) => n === count,
      10,
    );

  const busy = (answer: FreshAnswer) => {
    expect(answer.status, answer.text).to.equal(503);
    expect(answer.body.code).to.equal(14);
    expect(answer.body.message).to.include("api.max-open-connections");
    expect(answer.headers["retry-after"]).to.equal("1");
    expect(answer.headers.connection).to.equal("close");
  };

  /** A request on a connection that was opened earlier: it is answered, so the connection was kept. */
  async function askOn(client: RawSocket, path: string) {
    let received = "";
    client.socket.on("data", (chunk: string) => (received += chunk));
    client.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    return (
      await pollUntil(
        async () => splitResponses(received),
        (responses) => responses.length === 1,
        10,
      )
    )[0]!;
  }

  it("a request over the limit waits for a place and runs when one frees", async () => {
    const s = await start({ "max-open-connections": 2 });
    const h1 = freshRequest(s.url, "/hold1");
    const h2 = freshRequest(s.url, "/hold2");
    await Promise.all([s.arrival("hold1"), s.arrival("hold2")]);
    const w3 = freshRequest(s.url, "/w3");
    await waiting(s, 1); // w3 reached the gate and was put in line, not run
    expect(s.seen).to.deep.equal(["hold1", "hold2"]);
    s.release("hold1");
    expect((await w3).status).to.equal(200);
    expect(s.seen).to.deep.equal(["hold1", "hold2", "w3"]);
    s.release("hold2");
    expect((await h1).status).to.equal(200);
    expect((await h2).status).to.equal(200);
  });

  it("answers 503 with the error body and Retry-After to a request that waited the read timeout", async () => {
    const s = await start({ "max-open-connections": 1, "rpc-read-timeout": 1 });
    const h1 = freshRequest(s.url, "/hold1");
    await s.arrival("hold1");
    busy(await freshRequest(s.url, "/w2"));
    expect(s.seen).to.deep.equal(["hold1"]);
    s.release("hold1");
    expect((await h1).status).to.equal(200);
  });

  it("answers 503 at once to a request that finds as many waiting as the limit", async () => {
    const s = await start({ "max-open-connections": 1 });
    const h1 = freshRequest(s.url, "/hold1");
    await s.arrival("hold1");
    const w2 = freshRequest(s.url, "/w2");
    await waiting(s, 1); // w2 is in line
    busy(await freshRequest(s.url, "/w3")); // long before w2's 10 s wait is over
    s.release("hold1");
    expect((await w2).status).to.equal(200);
    expect((await h1).status).to.equal(200);
  });

  it("silent and idle connections take no place: with more of them than the limit, a request is answered and they stay open", async () => {
    const s = await start({ "max-open-connections": 1 });
    const silent = Array.from({ length: 5 }, () => rawSocket(s.url));
    await Promise.all(silent.map((c) => c.connected));
    const agent = new http.Agent({ keepAlive: true });
    const kept = await new Promise<http.IncomingMessage>((resolve) => http.get(`${s.url}/kept`, { agent }, (r) => r.resume().on("end", () => resolve(r))));
    expect(kept.headers.connection).to.equal("keep-alive");
    expect((await freshRequest(s.url, "/fresh")).status).to.equal(200);
    for (const [i, client] of silent.entries()) expect((await askOn(client, `/late${i}`)).status).to.equal(200);
    agent.destroy();
  });

  it("at api.max-idle-connections a new connection takes the place of the one longest without a request", async () => {
    const s = await start({ "max-open-connections": 1, "max-idle-connections": 3 });
    const silent: RawSocket[] = [];
    for (let i = 0; i < 3; i++) {
      silent.push(rawSocket(s.url));
      await silent[i]!.connected;
    }
    // the newest of them has been answered once: the oldest without a request is now silent[0], then silent[2]
    expect((await askOn(silent[1]!, "/first")).status).to.equal(200);
    expect((await freshRequest(s.url, "/fresh")).status).to.equal(200);
    expect((await silent[0]!.closed).received).to.equal("");
    expect((await askOn(silent[2]!, "/third")).status).to.equal(200);
  });

  it("a head that has not arrived a second after its first byte gives its place up when places run out: 408 with the error body", async () => {
    const s = await start({ "max-open-connections": 1 });
    const slow = rawSocket(s.url);
    await slow.connected;
    slow.trickle(`GET /slow HTTP/1.1\r\nHost: x\r\nX-Slow: ${"a".repeat(200)}`, 100);
    const h1 = freshRequest(s.url, "/hold1");
    await s.arrival("hold1");
    const { received } = await slow.closed;
    const [answer] = splitResponses(received);
    expect(answer!.status, received).to.equal(408);
    expect(JSON.parse(answer!.body)).to.include({ code: 4 });
    s.release("hold1");
    expect((await h1).status).to.equal(200);
  });

  it("a connection silent since it connected is closed unanswered at the read timeout (as Go's server closes it)", async () => {
    const s = await start({ "rpc-read-timeout": 1 });
    const silent = rawSocket(s.url);
    await silent.connected;
    const closed = await silent.closed;
    expect(closed.received).to.equal("");
    expect(closed.error, "closed, not reset").to.equal(undefined);
  });

  it("on shutdown answers the waiting requests 503 and lets the answer in flight finish", async () => {
    const s = await start({ "max-open-connections": 1 });
    const h1 = freshRequest(s.url, "/hold1", { headers: { connection: "keep-alive" } });
    await s.arrival("hold1");
    const w2 = freshRequest(s.url, "/w2");
    await waiting(s, 1);
    const closed = s.server.close();
    servers.splice(servers.indexOf(s.server), 1);
    const refused = await w2;
    expect(refused.status).to.equal(503);
    expect(refused.body.message).to.include("shutting down");
    s.release("hold1");
    const answer = await h1;
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({ id: "hold1" });
    expect(answer.headers.connection).to.equal("close");
    await closed;
  });
});
