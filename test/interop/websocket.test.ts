import { expect } from "chai";
import path from "node:path";
import WebSocket from "ws";
import { toHex } from "@cosmjs/encoding";
import { Tendermint34Client, WebsocketClient } from "tendermint-rpc-tm34";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { websocketText } from "../../src/util/websocketText.js";
import { rpcSocket } from "../helpers/rpcSocket.js";

/**
 * cosmjs 0.34's ReconnectingSocket schedules a reconnect on every Disconnected status, its own
 * disconnect() included, and then keeps reconnecting (to this node, and after the node stops, with
 * back-off for ever), which would keep the test process alive. Cancel the timer it just set.
 */
function cancelReconnect(websocket: WebsocketClient): void {
  const socket = (websocket as unknown as { socket: { reconnectTimeout: NodeJS.Timeout | null } }).socket;
  if (socket.reconnectTimeout) clearTimeout(socket.reconnectTimeout);
  socket.reconnectTimeout = null;
}

describe("interop: websocket subscriptions of the node's RPC", function () {
  this.timeout(60_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;

  before(async () => {
    initDevHome(home, { accounts: 4, mnemonic: TEST_MNEMONIC });
    node = await startNode(home);
  });
  after(() => node?.proc.stop());

  const wsUrl = () => node.rpcUrl.replace(/^http/, "ws") + "/websocket";

  it("a Tendermint34Client subscriber receives the Tx event of a broadcast transaction", async () => {
    const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
    // cosmjs appends the /websocket path itself. Its request queue is only flushed when the socket
    // opens with a request already queued (cosmjs 0.34 never resets its "processing" flag on an empty
    // queue), so the subscription is started right away, before anything else is awaited.
    const websocket = new WebsocketClient(node.rpcUrl.replace(/^http/, "ws"));
    const client = await Tendermint34Client.create(websocket);
    try {
      const received = new Promise<{ hash: string; height: number; events: string[] }>((resolve, reject) => {
        client.subscribeTx(`tm.event='Tx' AND message.sender='${a.address}'`).subscribe({
          next: (event) => resolve({ hash: toHex(event.hash).toUpperCase(), height: event.height, events: event.result.events.map((e) => e.type) }),
          error: reject,
        });
      });
      // The client sends its subscribe request when the stream starts; a transaction broadcast before
      // the node registered it is not reported, so send another one until an event arrives.
      const sent: string[] = [];
      let event: Awaited<typeof received> | undefined;
      for (let sequence = 0; sequence < 5 && !event; sequence++) {
        const broadcast = await client.broadcastTxSync({ tx: await directTx(a, { messages: [send(a.address, b.address, "9")], sequence, accountNumber: 0 }) });
        expect(broadcast.code, broadcast.log).to.equal(0);
        sent.push(toHex(broadcast.hash).toUpperCase());
        event = await Promise.race([received, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 3000))]);
      }
      expect(event, "a Tx event").to.not.equal(undefined);
      expect(sent).to.include(event!.hash);
      expect(event!.height).to.be.greaterThan(1);
      expect(event!.events).to.include("transfer");
    } finally {
      client.disconnect();
      cancelReconnect(websocket);
    }
  });

  it("a raw websocket subscriber gets NewBlock events, and can unsubscribe", async () => {
    const { socket, messages, arrived } = await rpcSocket(wsUrl());
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: "blocks", method: "subscribe", params: { query: "tm.event='NewBlock'" } }));
    const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 2), testSigner(TEST_MNEMONIC, 3)]);
    // the subscription is registered once the node has answered it
    expect(await arrived((m) => m.id === "blocks")).to.deep.equal({ jsonrpc: "2.0", id: "blocks", result: {} });
    const rest = await fetch(`${node.restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({
        tx_bytes: Buffer.from(await directTx(a, { messages: [send(a.address, b.address, "1")], sequence: 0, accountNumber: 2 })).toString("base64"),
        mode: "BROADCAST_MODE_BLOCK",
      }),
    });
    expect(rest.status).to.equal(200);
    // events carry the id of their subscribe request, as the engine sends them
    const isBlockEvent = (m: (typeof messages)[number]) => m.id === "blocks" && m.result?.data !== undefined;
    expect((await arrived(isBlockEvent)).result!.data!.type).to.equal("tendermint/event/NewBlock");
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "unsubscribe", params: { query: "tm.event='NewBlock'" } }));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "status", params: {} }));
    expect((await arrived((m) => m.id === 3)).result).to.have.property("sync_info");
    expect(messages.find((m) => m.id === 2)).to.deep.equal({ jsonrpc: "2.0", id: 2, result: {} });
    socket.close();
  });

  it("answers other methods over the websocket with the same results and error objects as over HTTP", async () => {
    const socket = new WebSocket(wsUrl());
    await new Promise((resolve) => socket.once("open", resolve));
    const answers = new Map<unknown, unknown>();
    socket.on("message", (data) => {
      const message = JSON.parse(websocketText(data)) as { id: unknown };
      answers.set(message.id, message);
    });
    const overHttp = async (request: Record<string, unknown>) =>
      (await fetch(node.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", ...request }) })).json() as Promise<unknown>;
    const requests: Array<Record<string, unknown>> = [
      { id: 1, method: "abci_query", params: { path: "/core.bank.v1beta1.Query/Params", data: "", height: "1", prove: false } },
      { id: 2, method: "abci_query", params: { path: "/core.bank.v1beta1.Query/Params", data: "zz", height: "0", prove: false } },
      { id: 3, method: "abci_query", params: ["/core.bank.v1beta1.Query/Params", ""] },
      { id: 4, method: "block", params: { height: "999999" } },
      { id: 5, method: "no_such_method", params: {} },
    ];
    try {
      for (const request of requests) {
        socket.send(JSON.stringify({ jsonrpc: "2.0", ...request }));
        while (!answers.has(request.id)) await new Promise((resolve) => setTimeout(resolve, 10));
        expect(answers.get(request.id), String(request.method)).to.deep.equal(await overHttp(request));
      }
      expect(answers.get(2)).to.have.nested.property("error.code", -32602);
      expect(answers.get(4)).to.have.nested.property("error.code", -32603);
    } finally {
      socket.close();
    }
  });
});
