import { expect } from "chai";
import type http from "node:http";
import Koa from "koa";
import { ConfigError } from "../../src/config/tomlConfig.js";
import { listen } from "../../src/server/httpServer.js";
import { RATE_LIMIT_CLIENTS, rateLimit } from "../../src/http/rateLimit.js";
import type { ApiConfig } from "../../src/config/appConfig.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { freshRequest, type FreshAnswer } from "../helpers/rawHttp.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

/** So slow a refill (one request per 1,000 s) that no test runs long enough to see a token come back. */
const SLOW = 0.001;

describe("api.rate-limit: per client address", function () {
  this.timeout(20_000);
  const servers: RunningServer[] = [];
  afterEach(() => Promise.all(servers.splice(0).map((s) => s.close())));

  async function start(api: Partial<ApiConfig>): Promise<string> {
    const app = new Koa();
    app.use((ctx) => (ctx.body = { ok: true }));
    const server = await listen(app, testApiConfig(api));
    servers.push(server);
    return server.url;
  }
  const ask = (url: string, forwardedFor?: string) =>
    freshRequest(url, "/x", { headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } });
  const statuses = async (url: string, n: number, forwardedFor?: string) => {
    const answers: number[] = [];
    for (let i = 0; i < n; i++) answers.push((await ask(url, forwardedFor)).status);
    return answers;
  };
  const tooMany = (answer: FreshAnswer) => {
    expect(answer.status, answer.text).to.equal(429);
    expect(answer.body.code).to.equal(8);
    expect(answer.body.message).to.include("api.rate-limit");
    expect(answer.body.details).to.deep.equal([]);
    expect(Number(answer.headers["retry-after"])).to.be.at.least(1);
  };

  it("is off by default", async () => {
    const url = await start({});
    expect(await statuses(url, 30)).to.deep.equal(Array<number>(30).fill(200));
  });

  it("answers 429 with Retry-After and the error body past the burst", async () => {
    const url = await start({ "rate-limit": SLOW, "rate-limit-burst": 3 });
    expect(await statuses(url, 3)).to.deep.equal([200, 200, 200]);
    tooMany(await ask(url));
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
    const url = await start({ "rate-limit": SLOW, "rate-limit-burst": 2 });
    expect((await ask(url, "10.0.0.1")).status).to.equal(200);
    expect((await ask(url, "10.0.0.2")).status).to.equal(200);
    tooMany(await ask(url, "10.0.0.3")); // all three are the peer 127.0.0.1
  });

  it("behind a trusted proxy, counts the address it names: clients apart, and a client cannot pick its bucket", async () => {
    const url = await start({ "rate-limit": SLOW, "rate-limit-burst": 2, "trusted-proxies": "127.0.0.1, ::1" });
    expect(await statuses(url, 2, "10.0.0.1")).to.deep.equal([200, 200]);
    tooMany(await ask(url, "10.0.0.1"));
    expect(await statuses(url, 2, "10.0.0.2")).to.deep.equal([200, 200]);
    // the proxy appends the address it heard from: what the client wrote to the left does not count
    tooMany(await ask(url, "10.0.0.99, 10.0.0.1"));
    expect(JSON.parse((await ask(url, "10.0.0.98, 10.0.0.1")).text).message).to.include("10.0.0.1");
  });

  it("refuses an api.trusted-proxies entry that is not an address at start", async () => {
    const app = new Koa();
    let error: unknown;
    await listen(app, testApiConfig({ "rate-limit": 1, "trusted-proxies": "127.0.0.1, 1.2.3" })).then(
      (server) => servers.push(server),
      (err: unknown) => (error = err),
    );
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as Error).message).to.include('"1.2.3"');
  });

  it(`keeps at most ${RATE_LIMIT_CLIENTS.toLocaleString("en")} clients: past it the one asked least recently is forgotten`, () => {
    const from = (address: string) => ({ socket: { remoteAddress: address }, headers: {} }) as http.IncomingMessage;
    /** A client empties its bucket, then `others` clients ask once each: what is the client told next? */
    const afterOthers = (others: number) => {
      const check = rateLimit({ perSecond: SLOW, burst: 1, trustedProxies: "" }, () => 0)!;
      const first = "10.255.255.255";
      expect(check(from(first))).to.equal(undefined);
      expect(check(from(first))?.status).to.equal(429);
      for (let i = 0; i < others; i++) check(from(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`));
      return check(from(first))?.status ?? 200;
    };
    expect(afterOthers(RATE_LIMIT_CLIENTS - 1), "the table is full, not past it: still kept").to.equal(429);
    expect(afterOthers(RATE_LIMIT_CLIENTS), "one client past it: forgotten, a full bucket again").to.equal(200);
  });
});
