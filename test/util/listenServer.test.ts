import { expect } from "chai";
import http from "node:http";
import { listenServer } from "../../src/util/listenServer.js";
import type { RunningServer } from "../../src/util/runningServer.js";

/** One kept-alive connection's GET: the status, the Connection header and the body. */
function get(agent: http.Agent, url: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }));
      })
      .on("error", reject);
  });
}

describe("listenServer's close (the node's RPC server)", () => {
  it("ends although a keep-alive client keeps asking: the answer in flight at the close, and each after, closes its connection", async () => {
    const holder: { running?: RunningServer } = {};
    let closing: Promise<void> | undefined;
    let requests = 0;
    // the close comes while the fifth request is being answered, as a node's SIGTERM comes between a gateway's probes
    const server = http.createServer((_request, response) => {
      if (++requests === 5) closing = holder.running!.close();
      response.end("ok");
    });
    const running = (holder.running = await listenServer(server, "tcp://127.0.0.1:0"));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answers: Array<{ connection: string | undefined }> = [];
    let asking = true;
    // a gateway probing the node every few milliseconds over one kept-alive connection
    const client = (async () => {
      while (asking) {
        try {
          answers.push(await get(agent, running.url));
        } catch {
          return; // the server stopped listening: nothing more to ask
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    while (!closing) await new Promise((resolve) => setTimeout(resolve, 5));
    await closing;
    asking = false;
    await client;
    agent.destroy();
    expect(answers.slice(0, 4).map((a) => a.connection)).to.deep.equal(["keep-alive", "keep-alive", "keep-alive", "keep-alive"]);
    expect(answers.slice(4).map((a) => a.connection)).to.deep.equal(["close"]);
  });

  it("lets a request in flight at the close finish, its answer closing the connection", async () => {
    let answerLater: (() => void) | undefined;
    const server = http.createServer((_request, response) => {
      answerLater = () => response.end("late");
    });
    const running = await listenServer(server, "tcp://127.0.0.1:0");
    const agent = new http.Agent({ keepAlive: true });
    const answer = get(agent, running.url);
    while (!answerLater) await new Promise((resolve) => setImmediate(resolve));
    let closed = false;
    const closing = running.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed, "closed before the request in flight was answered").to.equal(false);
    answerLater();
    expect(await answer).to.deep.equal({ status: 200, connection: "close", body: "late" });
    await closing;
    agent.destroy();
  });
});
