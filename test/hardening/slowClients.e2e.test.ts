import { expect } from "chai";
import { setApiSettings } from "../helpers/appToml.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { freshRequest, rawSocket, type FreshAnswer, type RawSocket } from "../helpers/rawHttp.js";

const READ_TIMEOUT_S = 2;
const MAX_CONNECTIONS = 16;
/** The bounds of the issue: cut within 1 s of the read timeout; a good request answered within 2 s. */
const CUT_TOLERANCE_MS = 1000;
const GOOD_WITHIN_MS = 2000;
const GOOD_ROUTE = "/core/bank/v1beta1/params";

/**
 * Slow and silent clients against a `chain-rest start` process configured
 * with a short read timeout and a small connection limit. The time bounds are
 * the behaviour the README promises (a cut at api.rpc-read-timeout ± 1 s),
 * not speed measurements; they hold with a second of slack on a loaded machine.
 */
describe("hardening: slow clients and the connection limit", function () {
  this.timeout(60_000);
  const chain = useStartedDevChain({
    prepare: (home) => setApiSettings(home, { "rpc-read-timeout": READ_TIMEOUT_S, "max-open-connections": MAX_CONNECTIONS }),
  });
  const url = () => chain.node().restUrl;

  /** Good requests, one after the other on fresh connections, until `done` settles; all must be 200 within the bound. */
  async function goodRequestsUntil(done: Promise<unknown>): Promise<FreshAnswer[]> {
    let finished = false;
    void done.finally(() => (finished = true));
    const answers: FreshAnswer[] = [];
    while (!finished) {
      answers.push(await freshRequest(url(), GOOD_ROUTE));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return answers;
  }

  function expectGood(answers: FreshAnswer[]): void {
    expect(answers.length).to.be.greaterThan(0);
    for (const answer of answers) {
      expect(answer.status, answer.text).to.equal(200);
      expect(answer.ms, "a good request waited").to.be.below(GOOD_WITHIN_MS);
    }
    console.log(`      ${answers.length} good requests meanwhile, the slowest answered in ${Math.max(...answers.map((a) => a.ms))} ms`);
  }

  it(`cuts silent and slowloris connections at api.rpc-read-timeout (${READ_TIMEOUT_S} s ± 1 s) while good requests are answered`, async () => {
    const slow: Array<{ kind: string; client: RawSocket }> = [];
    for (let i = 0; i < 3; i++) slow.push({ kind: "silent", client: rawSocket(url()) });
    for (let i = 0; i < 3; i++) {
      const client = rawSocket(url());
      client.trickle(`GET ${GOOD_ROUTE} HTTP/1.1\r\nHost: x\r\nX-Slow: ${"a".repeat(200)}`, 250); // a head that never ends
      slow.push({ kind: "slow head", client });
    }
    for (let i = 0; i < 2; i++) {
      const client = rawSocket(url());
      client.socket.write("POST /core/tx/v1beta1/simulate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{");
      client.trickle(" ", 250); // a body that never ends
      slow.push({ kind: "slow body", client });
    }
    await Promise.all(slow.map((s) => s.client.connected));
    const closings = Promise.all(slow.map((s) => s.client.closed));
    const good = await goodRequestsUntil(closings);
    const closed = await closings;
    closed.forEach((c, i) => {
      const what = `${slow[i]!.kind} connection closed after ${c.afterMs} ms (${JSON.stringify(c.received.split("\r\n")[0])})`;
      expect(c.afterMs, what).to.be.within(READ_TIMEOUT_S * 1000 - CUT_TOLERANCE_MS, READ_TIMEOUT_S * 1000 + CUT_TOLERANCE_MS);
      if (c.received === "") return; // a plain close where an answer had begun
      expect(c.received, what).to.match(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(c.received.split("\r\n\r\n")[1]!).code, what).to.equal(4);
    });
    console.log(
      `      ${closed.length} slow connections cut after ${Math.min(...closed.map((c) => c.afterMs))}-${Math.max(...closed.map((c) => c.afterMs))} ms`,
    );
    expectGood(good);
  });

  it(`with more silent connections than api.max-open-connections (${MAX_CONNECTIONS}) a good request is answered within 2 s: silent connections take no place`, async () => {
    const silent = Array.from({ length: MAX_CONNECTIONS }, () => rawSocket(url()));
    await Promise.all(silent.map((s) => s.connected));
    const good = await goodRequestsUntil(Promise.all(silent.map((s) => s.closed)));
    expectGood(good);
  });

  it("beyond the places and as many waiting, a connection is answered 503 with the error body at once; the waiting ones are answered, none reset", async () => {
    // places held by requests in flight (their bodies trickle in), so that nothing gives its place up
    const holders = Array.from({ length: MAX_CONNECTIONS }, () => {
      const client = rawSocket(url());
      client.socket.write("POST /core/tx/v1beta1/simulate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{");
      client.trickle(" ", 250);
      return client;
    });
    await Promise.all(holders.map((h) => h.connected));
    const waiting = Array.from({ length: MAX_CONNECTIONS }, () => freshRequest(url(), GOOD_ROUTE));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the waiting ones have arrived
    const refused = await freshRequest(url(), GOOD_ROUTE);
    expect(refused.status, refused.text).to.equal(503);
    expect(refused.body.code).to.equal(14);
    expect(refused.body.message).to.include("api.max-open-connections");
    expect(refused.ms, "the refusal comes at once, not after a wait").to.be.below(GOOD_WITHIN_MS);
    // each waiting one is let in when the holders are cut at the read timeout, or told 503 when its own wait runs out first
    const answers = await Promise.all(waiting);
    for (const answer of answers) {
      expect([200, 503], answer.text).to.include(answer.status);
      if (answer.status === 503) expect(answer.body.code).to.equal(14);
    }
    await Promise.all(holders.map((h) => h.closed));
    console.log(
      `      waiting connections: ${answers.filter((a) => a.status === 200).length} served, ${answers.filter((a) => a.status === 503).length} answered 503`,
    );
    expectGood([await freshRequest(url(), GOOD_ROUTE)]);
  });
});
