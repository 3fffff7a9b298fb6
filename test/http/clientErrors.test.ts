import { expect } from "chai";
import Koa from "koa";
import { listen } from "../../src/server/httpServer.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { rawSocket } from "../helpers/rawHttp.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

/** Requests Node's HTTP parser refuses get a status and the gateway's JSON error body, not a bare status line. */
describe("requests the HTTP parser refuses", () => {
  let server: RunningServer;
  before(async () => {
    const app = new Koa();
    app.use((ctx) => (ctx.body = { ok: true }));
    server = await listen(app, testApiConfig({ "rpc-read-timeout": 1 }));
  });
  after(() => server.close());

  const answerTo = async (send: string | undefined) => {
    const client = rawSocket(server.url);
    await client.connected;
    if (send !== undefined) client.socket.write(send);
    const { received } = await client.closed;
    const [head, body] = received.split("\r\n\r\n");
    return { statusLine: head!.split("\r\n")[0], headers: head!, body: JSON.parse(body!) };
  };

  it("answers a malformed request 400 with code 3 and the parser's reason", async () => {
    const answer = await answerTo("NOT HTTP AT ALL\r\n\r\n");
    expect(answer.statusLine).to.equal("HTTP/1.1 400 Bad Request");
    expect(answer.headers).to.match(/\r\ncontent-type: application\/json/i);
    expect(answer.body.code).to.equal(3);
    expect(answer.body.message).to.match(/^malformed HTTP request: /);
  });

  it("answers a request head larger than Node reads 431 with code 8", async () => {
    const answer = await answerTo(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(answer.statusLine).to.equal("HTTP/1.1 431 Request Header Fields Too Large");
    expect(answer.body).to.deep.equal({ code: 8, message: "the request head is larger than the server reads", details: [] });
  });

  it("answers a request not received within the read timeout 408 with code 4", async () => {
    const answer = await answerTo("GET / HTTP/1.1\r\nHost: x\r\n");
    expect(answer.statusLine).to.equal("HTTP/1.1 408 Request Timeout");
    expect(answer.body).to.deep.equal({ code: 4, message: "the request was not received within api.rpc-read-timeout", details: [] });
  });
});
