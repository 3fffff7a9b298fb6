import { expect } from "chai";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer } from "ws";
import { SocketCalls } from "../../src/client/socketCalls.js";
import { websocketText } from "../../src/util/websocketText.js";

describe("JSON-RPC calls over a node's websocket (socketCalls.ts)", () => {
  let server: http.Server;
  let wss: WebSocketServer;
  let url: string;

  before(async () => {
    server = http.createServer();
    wss = new WebSocketServer({ server, path: "/websocket" });
    wss.on("connection", (socket) =>
      socket.on("message", (data) => {
        const body = JSON.parse(websocketText(data)) as { id: number };
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { echoed: body.id } }));
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/websocket`;
  });
  after(() => {
    for (const socket of wss.clients) socket.terminate();
    wss.close();
    server.close();
  });

  it("sends the calls of one tick in one write (the connection corked until the tick ends), and matches every answer", async () => {
    const socket = new WebSocket(url);
    const calls = new SocketCalls(socket, 5_000);
    let raw: Duplex | undefined;
    socket.once("upgrade", (response) => {
      raw = response.socket;
      calls.useConnection(response.socket);
    });
    socket.on("message", (data) => calls.settle(JSON.parse(websocketText(data)) as { id: number }));
    await new Promise((resolve) => socket.once("open", resolve));
    try {
      const answers = Array.from({ length: 20 }, (_, i) => calls.call(i + 1, JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "abci_query", params: {} })));
      expect(raw!.writableCorked, "held while the tick runs").to.equal(1);
      expect(raw!.writableLength, "the twenty frames buffered").to.be.greaterThan(20 * 50);
      await new Promise((resolve) => process.nextTick(resolve));
      expect(raw!.writableCorked, "let go once the tick ended").to.equal(0);
      const replies = await Promise.all(answers);
      expect(replies.map((r) => (r?.result as { echoed: number }).echoed)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
    } finally {
      socket.terminate();
    }
  });
});
