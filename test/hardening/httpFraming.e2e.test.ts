import { expect } from "chai";
import { pollUntil } from "../helpers/poll.js";
import { rawSocket, splitResponses, type RawResponse } from "../helpers/rawHttp.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { MALFORMED_REQUESTS, type MalformedRequest } from "./malformedRequests.js";

const GOOD = "GET /core/bank/v1beta1/params HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n";

/**
 * Answers stay in request order (RFC 9112 §9.3.2) when a malformed request
 * follows good ones on a connection: the good ones are answered, then the
 * malformed one with its status and the gateway's error body, then the
 * connection closes. Each row of malformedRequests.ts, pipelined in the same
 * write as a good request and sent after a good request's answer was read.
 */
describe("hardening: a malformed request after good ones on a connection", function () {
  this.timeout(60_000);
  const chain = useStartedDevChain();
  const url = () => chain.node().restUrl;

  function expectInOrder(row: MalformedRequest, responses: RawResponse[], goodOnes: number): void {
    const what = `${row.name}: ${JSON.stringify(responses.map((r) => `${r.status} ${r.body.slice(0, 120)}`))}`;
    expect(
      responses.map((r) => r.status),
      what,
    ).to.deep.equal([...Array<number>(goodOnes).fill(200), row.status]);
    for (const good of responses.slice(0, goodOnes)) expect(JSON.parse(good.body).params, what).to.have.property("default_send_enabled");
    const refusal = responses[goodOnes]!;
    expect(refusal.headers["content-type"], what).to.match(/^application\/json/);
    expect(refusal.headers.connection, what).to.equal("close");
    const body = JSON.parse(refusal.body);
    expect(body.code, what).to.equal(row.code);
    expect(body.message, what).to.be.a("string").and.not.equal("");
    expect(body.details, what).to.deep.equal([]);
  }

  for (const row of MALFORMED_REQUESTS) {
    it(`pipelined behind two good requests in one write: ${row.name}`, async () => {
      const client = rawSocket(url());
      await client.connected;
      client.socket.write(GOOD + GOOD + row.bytes);
      const { received } = await client.closed;
      expectInOrder(row, splitResponses(received), 2);
    });
  }

  for (const row of MALFORMED_REQUESTS) {
    it(`after a kept-alive request was answered: ${row.name}`, async () => {
      const client = rawSocket(url());
      let received = "";
      client.socket.on("data", (chunk: string) => (received += chunk));
      await client.connected;
      client.socket.write(GOOD);
      await pollUntil(
        async () => splitResponses(received).length,
        (answered) => answered === 1,
        10,
      );
      client.socket.write(row.bytes);
      const closed = await client.closed;
      expectInOrder(row, splitResponses(closed.received), 1);
    });
  }
});
