import { expect } from "chai";
import { setApiSettings } from "../helpers/appToml.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { freshRequest, rawSocket, type FreshAnswer, type RawSocket } from "../helpers/rawHttp.js";

const READ_TIMEOUT_S = 2;
const MAX_CONNECTIONS = 16;
/** A cut never comes before the read timeout (less this slack: the client starts its clock before the server accepts). */
const CUT_TOLERANCE_MS = 1000;
/** A cut must come, not be left open; generous, so that a loaded CI machine does not fail it (the ± 1 s of the README is shown by the printed times). */
const CUT_AT_THE_LATEST_MS = READ_TIMEOUT_S * 1000 + 15_000;
const GOOD_ROUTE = "/core/bank/v1beta1/params";

/**
 * Slow and silent clients against a `chain-rest start` process configured
 * with a short read timeout and a small connection limit. The time bounds are
 * the behaviour the README promises (a cut at api.rpc-read-timeout ± 1 s),
 * not speed measurements. No assertion depends on how fast the machine is:
 * "answered while the slow ones are held" is checked by order (a good answer
 * came before the first slow connection was cut), not by a duration.
 */
describe("hardening: slow clients and the connection limit", function () {
  this.timeout(60_000);
  const chain = useStartedDevChain({
    prepare: (home) => setApiSettings(home, { "rpc-read-timeout": READ_TIMEOUT_S, "max-open-connections": MAX_CONNECTIONS }),
  });
  const url = () => chain.node().restUrl;

  type GoodAnswer = FreshAnswer & { beforeFirstCut: boolean };

  /** Resolves when the first of the slow connections is closed by the server. */
  const firstClosed = (clients: RawSocket[]) => Promise.race(clients.map((c) => c.closed));

  /** Good requests, one after the other on fresh connections, until all `held` are closed; each notes whether it came before the first cut. */
  async function goodRequestsWhileHeld(held: RawSocket[]): Promise<GoodAnswer[]> {
    let cut = false;
    let finished = false;
    void firstClosed(held).then(() => (cut = true));
    void Promise.all(held.map((c) => c.closed)).then(() => (finished = true));
    const answers: GoodAnswer[] = [];
    while (!finished) {
      const answer = await freshRequest(url(), GOOD_ROUTE);
      answers.push({ ...answer, beforeFirstCut: !cut });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return answers;
  }

  function expectGood(answers: GoodAnswer[]): void {
    for (const answer of answers) expect(answer.status, answer.text).to.equal(200);
    expect(answers.filter((a) => a.beforeFirstCut).length, "good requests answered while every slow connection was still held").to.be.greaterThan(0);
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
    const good = await goodRequestsWhileHeld(slow.map((s) => s.client));
    const closed = await Promise.all(slow.map((s) => s.client.closed));
    closed.forEach((c, i) => {
      const what = `${slow[i]!.kind} connection closed after ${c.afterMs} ms (${JSON.stringify(c.received.split("\r\n")[0])})`;
      expect(c.afterMs, what).to.be.within(READ_TIMEOUT_S * 1000 - CUT_TOLERANCE_MS, CUT_AT_THE_LATEST_MS);
      if (c.received === "") return; // a plain close where an answer had begun
      expect(c.received, what).to.match(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(c.received.split("\r\n\r\n")[1]!).code, what).to.equal(4);
    });
    console.log(
      `      ${closed.length} slow connections cut after ${Math.min(...closed.map((c) => c.afterMs))}-${Math.max(...closed.map((c) => c.afterMs))} ms`,
    );
    expectGood(good);
  });

  it(`with more silent connections than api.max-open-connections (${MAX_CONNECTIONS}) good requests are answered: silent connections take no place`, async () => {
    const silent = Array.from({ length: MAX_CONNECTIONS }, () => rawSocket(url()));
    await Promise.all(silent.map((s) => s.connected));
    expectGood(await goodRequestsWhileHeld(silent));
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
    let cut = false;
    void firstClosed(holders).then(() => (cut = true));
    // as many as wait in line, and a few more: those beyond the line are refused at once, before any holder is cut
    const asked = Array.from({ length: MAX_CONNECTIONS + 4 }, () => freshRequest(url(), GOOD_ROUTE).then((answer) => ({ ...answer, beforeFirstCut: !cut })));
    const answers = await Promise.all(asked);
    const refusedAtOnce = answers.filter((a) => a.status === 503 && a.beforeFirstCut);
    expect(refusedAtOnce.length, "refused while every place was held").to.be.greaterThan(0);
    for (const refused of refusedAtOnce) expect(refused.body.message).to.include("api.max-open-connections");
    // each waiting one is let in when the holders are cut at the read timeout, or told 503 when its own wait runs out first
    for (const answer of answers) {
      expect([200, 503], answer.text).to.include(answer.status);
      if (answer.status === 503) expect(answer.body.code).to.equal(14);
    }
    await Promise.all(holders.map((h) => h.closed));
    console.log(
      `      waiting connections: ${answers.filter((a) => a.status === 200).length} served, ${answers.filter((a) => a.status === 503).length} answered 503`,
    );
    const after = await freshRequest(url(), GOOD_ROUTE);
    expect(after.status, after.text).to.equal(200);
  });
});
