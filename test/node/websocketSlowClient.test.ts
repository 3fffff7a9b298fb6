import { expect } from "chai";
import http from "node:http";
import WebSocket from "ws";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { attachWebsocket, MAX_UNREAD_BYTES } from "../../src/node/rpc/websocket.js";
import { websocketText } from "../../src/util/websocketText.js";
import { openDevNode } from "../helpers/devNode.js";
import { pollUntil } from "../helpers/poll.js";

/** Until `done` holds (the test's timeout bounds the wait). */
const waitUntil = (done: () => boolean) =>
  pollUntil(
    async () => done(),
    (value) => value,
    10,
  );

/**
 * A websocket subscriber that does not read: its send queue is bounded. Past
 * MAX_UNREAD_BYTES unread its subscriptions are cancelled with the engine's
 * error ("subscription was cancelled (reason: client is not pulling messages
 * fast enough)"), and no further event is queued for it.
 */
describe("websocket: a subscriber that does not read", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let server: http.Server;
  let detach: () => void;
  let url: string;

  before(async () => {
    ({ node } = await openDevNode());
    server = http.createServer();
    detach = attachWebsocket(server, node, {});
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/websocket`;
  });
  after(async () => {
    detach();
    await new Promise((resolve) => server.close(resolve));
    await node.close();
  });

  it("has its subscription cancelled once its queue passes the bound, and gets nothing more", async () => {
    const socket = new WebSocket(url);
    const messages: Array<{ id: unknown; result?: { data?: unknown }; error?: { data: string } }> = [];
    socket.on("message", (raw) => messages.push(JSON.parse(websocketText(raw)) as (typeof messages)[number]));
    await new Promise((resolve) => socket.once("open", resolve));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "subscribe", params: { query: "tm.event='NewBlock'" } }));
    await waitUntil(() => messages.length === 1);

    socket.pause(); // reads nothing more: the server's queue for it grows
    const record = (await node.committed(1))!;
    const eventBytes = JSON.stringify(record.block).length;
    // far more than the bound and the kernel's socket buffers hold
    const emitted = Math.ceil((16 * MAX_UNREAD_BYTES) / eventBytes) + 2000;
    for (let i = 0; i < emitted; i++) {
      node.emit("block", record);
      if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    socket.resume();
    await waitUntil(() => messages.some((m) => m.error));
    const events = messages.filter((m) => m.result?.data !== undefined).length;
    const cancelled = messages.find((m) => m.error)!;
    expect(cancelled.id).to.equal(7);
    expect(cancelled.error!.data).to.equal("subscription was cancelled (reason: client is not pulling messages fast enough)");
    expect(events).to.be.greaterThan(0).and.lessThan(emitted);

    // nothing is queued for it any more: a new block gives it no event
    const before = messages.length;
    node.emit("block", record);
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "unsubscribe_all", params: {} }));
    await waitUntil(() => messages.some((m) => m.id === 8));
    expect(messages.slice(before).map((m) => m.id)).to.deep.equal([8]);
    socket.close();
  });
});
