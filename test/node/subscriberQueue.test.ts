import { expect } from "chai";
import http from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket, { WebSocketServer } from "ws";
import { SubscriberQueue } from "../../src/node/rpc/subscriberQueue.js";

/** A websocket server on loopback whose first connection is handed to a SubscriberQueue with a 1 MB bound. */
async function served(): Promise<{
  url: string;
  queue: Promise<{ queue: SubscriberQueue; cut: () => boolean; server: WebSocket }>;
  close: () => Promise<void>;
}> {
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  const queue = new Promise<{ queue: SubscriberQueue; cut: () => boolean; server: WebSocket }>((resolve) =>
    wss.once("connection", (socket) => {
      let cut = false;
      resolve({ queue: new SubscriberQueue(socket, () => (cut = true), 1024 * 1024), cut: () => cut, server: socket });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queue,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
}

describe("a subscriber's send queue", function () {
  this.timeout(60_000);

  it("cuts a subscriber that stops reading once its unsent bytes pass the bound, having buffered no more than that", async () => {
    const { url, queue, close } = await served();
    const client = new WebSocket(url);
    await new Promise((resolve) => client.once("open", resolve));
    // the client stops reading from its TCP connection
    (client as unknown as { _socket: { pause(): void } })._socket.pause();
    const { queue: sender, cut, server } = await queue;
    const message = { data: "x".repeat(64 * 1024) };
    let sent = 0;
    let mostUnsent = 0;
    // bounded: the kernel's loopback buffers take some megabytes, the queue one more
    for (; sent < 5000 && !cut(); sent++) {
      sender.send(message);
      mostUnsent = Math.max(mostUnsent, server.bufferedAmount);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(cut(), `cut after ${sent} messages`).to.equal(true);
    expect(mostUnsent).to.be.at.most(1024 * 1024 + 70 * 1024);
    await new Promise((resolve) => (server.readyState === server.CLOSED ? resolve(undefined) : server.once("close", resolve)));
    client.terminate();
    await close();
  });

  it("does not cut a subscriber that reads, even through a burst", async () => {
    const { url, queue, close } = await served();
    const client = new WebSocket(url);
    await new Promise((resolve) => client.once("open", resolve));
    let received = 0;
    const all = new Promise<void>((resolve) =>
      client.on("message", () => {
        if (++received === 600) resolve();
      }),
    );
    const { queue: sender, cut } = await queue;
    // 600 messages of 1 kB at once: less than the bound even if the kernel took none of it
    for (let i = 0; i < 600; i++) sender.send({ i, data: "y".repeat(1000) });
    await all;
    expect(cut()).to.equal(false);
    client.close();
    await close();
  });
});
