import { expect } from "chai";
import http from "node:http";
import Koa from "koa";
import { listen } from "../../src/http/httpServer.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { freshRequest, rawSocket, type FreshAnswer } from "../helpers/rawHttp.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

/**
 * api.max-open-connections through listen(): a Koa app whose /hold/{id}
 * requests are answered only when the test releases them, so that the places
 * are held exactly as long as a test wants.
 */
describe("connection limit: over api.max-open-connections a connection waits, then is served or answered 503", function () {
  this.timeout(20_000);
  const servers: RunningServer[] = [];
  afterEach(() => Promise.all(servers.splice(0).map((s) => s.close())));

  async function start(maxConnections: number, readTimeoutSeconds = 10) {
    const held = new Map<string, () => void>();
    const seen: string[] = [];
    const arrived = new Map<string, Promise<void>>();
    const signals = new Map<string, () => void>();
    const arrival = (id: string) => {
      if (!arrived.has(id)) arrived.set(id, new Promise((resolve) => signals.set(id, resolve)));
      return arrived.get(id)!;
    };
    const app = new Koa();
    app.use(async (ctx) => {
      const id = ctx.path.slice(1);
      seen.push(id);
      void arrival(id);
      signals.get(id)!();
      if (id.startsWith("hold")) await new Promise<void>((resolve) => held.set(id, resolve));
      ctx.body = { id };
    });
    const server = await listen(app, testApiConfig({ "max-open-connections": maxConnections, "rpc-read-timeout": readTimeoutSeconds }));
    servers.push(server);
    return { url: server.url, server, seen, arrival, release: (id: string) => held.get(id)!() };
  }

  const busy = (answer: FreshAnswer) => {
    expect(answer.status, answer.text).to.equal(503);
    expect(answer.body.code).to.equal(14);
    expect(answer.body.message).to.be.a("string").and.not.equal("");
    expect(answer.headers.connection).to.equal("close");
  };

  it("holds a connection over the limit unread, and serves it when a place frees — no reset", async () => {
    const s = await start(2);
    const h1 = freshRequest(s.url, "/hold1", { headers: { connection: "keep-alive" } });
    const h2 = freshRequest(s.url, "/hold2");
    await Promise.all([s.arrival("hold1"), s.arrival("hold2")]);
    const w3 = freshRequest(s.url, "/w3");
    await new Promise((resolve) => setTimeout(resolve, 200)); // time enough for w3 to be (wrongly) served if it were let in
    expect(s.seen).to.deep.equal(["hold1", "hold2"]);
    s.release("hold1");
    expect((await w3).status).to.equal(200);
    expect(s.seen).to.deep.equal(["hold1", "hold2", "w3"]);
    expect((await h1).headers.connection).to.equal("close"); // answered while w3 waited: its connection gave up its place
    s.release("hold2");
    expect((await h2).status).to.equal(200);
  });

  it("answers 503 with the error body to a connection that waited the read timeout", async () => {
    const s = await start(1, 1);
    const h1 = freshRequest(s.url, "/hold1");
    await s.arrival("hold1");
    busy(await freshRequest(s.url, "/w2"));
    expect(s.seen).to.deep.equal(["hold1"]);
    s.release("hold1");
    expect((await h1).status).to.equal(200);
  });

  it("answers 503 at once to a connection that finds as many waiting as the limit", async () => {
    const s = await start(1);
    const h1 = freshRequest(s.url, "/hold1");
    await s.arrival("hold1");
    const w2 = freshRequest(s.url, "/w2");
    await new Promise((resolve) => setTimeout(resolve, 100)); // w2 is waiting
    busy(await freshRequest(s.url, "/w3")); // long before w2's 10 s wait is over
    s.release("hold1");
    expect((await w2).status).to.equal(200);
    expect((await h1).status).to.equal(200);
  });

  it("takes the place of a connection idling between keep-alive requests, and of a silent one", async () => {
    const s = await start(1);
    const agent = new http.Agent({ keepAlive: true });
    const kept = await new Promise<http.IncomingMessage>((resolve) => http.get(`${s.url}/kept`, { agent }, (r) => r.resume().on("end", () => resolve(r))));
    expect(kept.headers.connection).to.equal("keep-alive");
    const second = await freshRequest(s.url, "/second"); // the idle kept-alive connection gave up its place
    expect(second.status).to.equal(200);
    agent.destroy();

    const silent = rawSocket(s.url);
    await silent.connected;
    const third = await freshRequest(s.url, "/third"); // served once the silent one has had its second
    expect(third.status).to.equal(200);
    expect((await silent.closed).received).to.equal("");
  });

  it("on shutdown answers the waiting connections 503 and lets the answer in flight finish", async () => {
    const s = await start(1);
    const h1 = freshRequest(s.url, "/hold1", { headers: { connection: "keep-alive" } });
    await s.arrival("hold1");
    const w2 = freshRequest(s.url, "/w2");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = s.server.close();
    servers.splice(servers.indexOf(s.server), 1);
    busy(await w2);
    s.release("hold1");
    const answer = await h1;
    expect(answer.status).to.equal(200);
    expect(answer.body).to.deep.equal({ id: "hold1" });
    expect(answer.headers.connection).to.equal("close");
    await closed;
  });
});
