import { expect } from "chai";
import Koa from "koa";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import type { ChainClient, EventListener } from "../../src/client/chainClient.js";
import { DEFAULT_EVENT_STREAM_LIMITS, EventStreams } from "../../src/http/eventStream.js";
import { gatewayErrors } from "../../src/http/errorBody.js";

/** A client whose subscriptions the test feeds: it holds each listener, and counts the subscriptions ended. */
function feedingClient() {
  const listeners: EventListener[] = [];
  let stopped = 0;
  const client = {
    address: "test",
    subscribeEvents: (_query: string, listener: EventListener) => {
      listeners.push(listener);
      return Promise.resolve(() => void stopped++);
    },
  } as unknown as ChainClient;
  return { client, listeners, stopped: () => stopped };
}

describe("GET /events: a reader that stops reading", function () {
  this.timeout(60_000);

  it("is cut once its unsent bytes pass the bound, and its subscription ends", async () => {
    const { client, listeners, stopped } = feedingClient();
    const bound = 1024 * 1024;
    const streams = new EventStreams(client, { ...DEFAULT_EVENT_STREAM_LIMITS, maxUnsentBytes: bound });
    const app = new Koa();
    app.use(gatewayErrors);
    app.use(streams.middleware);
    const handle = app.callback();
    const server = http.createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const socket = net.connect((server.address() as AddressInfo).port, "127.0.0.1");
    let head = "";
    await new Promise<void>((resolve) => {
      socket.on("data", (chunk: Buffer) => {
        head += chunk.toString();
        if (head.includes("\r\n\r\n")) {
          socket.pause(); // the reader stops reading
          resolve();
        }
      });
      socket.write(`GET /events?query=${encodeURIComponent("tm.event='NewBlock'")} HTTP/1.1\r\nHost: x\r\n\r\n`);
    });
    expect(head).to.match(/^HTTP\/1\.1 200/);
    expect(head).to.match(/content-type: text\/event-stream/i);
    const event = {
      query: "tm.event='NewBlock'",
      data: { type: "tendermint/event/NewBlock", value: { block: { header: { height: "7" } }, pad: "x".repeat(64 * 1024) } },
      events: {},
    };
    let sent = 0;
    // bounded: the kernel's loopback buffers take some megabytes, the response one more
    for (; sent < 5000 && stopped() === 0; sent++) {
      listeners[0]!.event(event);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(stopped(), `cut after ${sent} events`).to.equal(1);
    expect(streams.size).to.equal(0);
    socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
