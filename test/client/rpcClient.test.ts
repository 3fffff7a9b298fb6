import { expect } from "chai";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";
import { websocketText } from "../../src/util/websocketText.js";
import { NodeRpcError, NodeUnavailableError } from "../../src/client/chainClient.js";
import { RpcClient } from "../../src/client/rpcClient.js";

/** A small JSON-RPC fixture that records requests and answers from a script. */
function fixture(answer: (body: Record<string, unknown>) => unknown): Promise<{ url: string; requests: Record<string, unknown>[]; close: () => void }> {
  const requests: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      requests.push(body);
      const reply = answer(body);
      if (reply === "hang") return; // never answers
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, ...(reply as object) }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        url,
        requests,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      });
    }),
  );
}

describe("RpcClient (consensus engine JSON-RPC over HTTP)", () => {
  it("sends abci_query with hex data and a string height, and decodes the base64 value", async () => {
    const node = await fixture(() => ({ result: { response: { value: "Cg0KBXVpcmlzEgQxMDAwEgIQAQ==", height: "1234" } } }));
    try {
      const answer = await new RpcClient(node.url).abciQuery("/core.bank.v1beta1.Query/AllBalances", Uint8Array.of(0x0a, 0x01, 0x61), 7);
      expect(node.requests[0]).to.deep.include({
        jsonrpc: "2.0",
        method: "abci_query",
        params: { path: "/core.bank.v1beta1.Query/AllBalances", data: "0a0161", height: "7", prove: false },
      });
      expect(answer.code).to.equal(0);
      expect(answer.height).to.equal(1234);
      expect(Buffer.from(answer.value).toString("hex")).to.equal("0a0d0a0575697269731204313030301202" + "1001");
    } finally {
      node.close();
    }
  });

  it("reads the omitted-when-zero fields of a failed query", async () => {
    const node = await fixture(() => ({
      result: { response: { code: 22, log: "rpc error: code = NotFound desc = x: key not found", height: "5", codespace: "sdk" } },
    }));
    try {
      const answer = await new RpcClient(node.url).abciQuery("/p", new Uint8Array());
      expect(answer).to.deep.include({ code: 22, codespace: "sdk", log: "rpc error: code = NotFound desc = x: key not found", height: 5 });
      expect(answer.value.length).to.equal(0);
      expect(node.requests[0]!.params).to.deep.include({ height: "0", data: "" });
    } finally {
      node.close();
    }
  });

  it("sends tx bytes as base64 and 64-bit params as strings", async () => {
    const node = await fixture(() => ({ result: { txs: [], total_count: "0" } }));
    try {
      await new RpcClient(node.url).txSearch("tx.height=5", 2, 50, "desc");
      await new RpcClient(node.url).broadcastTx(Uint8Array.of(1, 2, 3), "sync").catch(() => undefined);
      expect(node.requests[0]!.params).to.deep.equal({ query: "tx.height=5", prove: false, page: "2", per_page: "50", order_by: "desc" });
      expect(node.requests[1]).to.deep.include({ method: "broadcast_tx_sync", params: { tx: "AQID" } });
    } finally {
      node.close();
    }
  });

  it("turns a JSON-RPC error object into a NodeRpcError", async () => {
    const node = await fixture(() => ({ error: { code: -32603, message: "Internal error", data: "tx (AB) not found" } }));
    try {
      const failure = await new RpcClient(node.url).tx(Uint8Array.of(0xab)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).to.be.instanceOf(NodeRpcError);
      expect((failure as Error).message).to.equal("Internal error: tx (AB) not found");
    } finally {
      node.close();
    }
  });

  it("reports a node that refuses connections as unavailable, naming its address", async () => {
    const node = await fixture(() => ({}));
    node.close();
    const failure = await new RpcClient(node.url).status().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).to.be.instanceOf(NodeUnavailableError);
    expect((failure as Error).message).to.match(new RegExp(`^node ${node.url} is unavailable: ECONNREFUSED`));
  });

  it("gives up on a node that does not answer within the timeout", async () => {
    const node = await fixture(() => "hang");
    try {
      const failure = await new RpcClient(node.url, 300).status().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).to.be.instanceOf(NodeUnavailableError);
      expect((failure as Error).message).to.equal(`node ${node.url} is unavailable: no answer within 300 ms`);
    } finally {
      node.close();
    }
  });
});

/** A node fixture answering JSON-RPC over HTTP (POST /) and over /websocket, recording how each call came. */
async function fixtureWithWebsocket(
  answer: (body: Record<string, unknown>, over: "http" | "websocket") => unknown,
): Promise<{ url: string; calls: Array<{ over: string; method: unknown }>; close: () => void }> {
  const calls: Array<{ over: string; method: unknown }> = [];
  const reply = (body: Record<string, unknown>, over: "http" | "websocket") => {
    calls.push({ over, method: body.method });
    if (body.method === "subscribe") return { result: {} };
    if (body.method === "status") return { result: { sync_info: { latest_block_height: "9", catching_up: false } } };
    return answer(body, over);
  };
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      const answered = reply(body, "http");
      if (answered === "hang") return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, ...(answered as object) }));
    });
  });
  const wss = new WebSocketServer({ server, path: "/websocket" });
  wss.on("connection", (socket) =>
    socket.on("message", (data) => {
      const body = JSON.parse(websocketText(data)) as Record<string, unknown>;
      const answered = reply(body, "websocket");
      if (answered === "hang") return;
      if (answered === "close") return socket.terminate();
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: body.id, ...(answered as object) }));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => {
      for (const socket of wss.clients) socket.terminate();
      wss.close();
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A client following the fixture's heights: resolves once its websocket is subscribed (the first height told). */
async function watchingClient(url: string, timeoutMs?: number): Promise<{ client: RpcClient; stop: () => void }> {
  const client = new RpcClient(url, timeoutMs);
  let stop: () => void = () => undefined;
  await new Promise<void>((resolve) => {
    stop = client.watchHeights((height) => {
      if (height !== undefined) resolve();
    });
  });
  return { client, stop };
}

const VALUE = { result: { response: { value: "Cg0KBXVpcmlzEgQxMDAwEgIQAQ==", height: "1234" } } };

describe("RpcClient: abci_query over the height watch's websocket", () => {
  it("sends abci_query over the open websocket and reads the same answer; other calls stay on HTTP", async () => {
    const node = await fixtureWithWebsocket(() => VALUE);
    const { client, stop } = await watchingClient(node.url);
    try {
      const answer = await client.abciQuery("/core.bank.v1beta1.Query/AllBalances", Uint8Array.of(0x0a, 0x01, 0x61), 7);
      expect(answer).to.deep.include({ code: 0, height: 1234, codespace: "", log: "" });
      expect(Buffer.from(answer.value).toString("base64")).to.equal("Cg0KBXVpcmlzEgQxMDAwEgIQAQ==");
      await client.status();
      expect(node.calls.filter((c) => c.method !== "subscribe")).to.deep.equal([
        { over: "http", method: "status" }, // the watch's first height
        { over: "websocket", method: "abci_query" },
        { over: "http", method: "status" },
      ]);
    } finally {
      stop();
      node.close();
    }
  });

  it("turns a JSON-RPC error object over the websocket into the same NodeRpcError", async () => {
    const node = await fixtureWithWebsocket(() => ({ error: { code: -32603, message: "Internal error", data: "height 99 must be less than or equal to 9" } }));
    const { client, stop } = await watchingClient(node.url);
    try {
      const failure = await client.abciQuery("/p", new Uint8Array(), 99).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).to.be.instanceOf(NodeRpcError);
      expect((failure as Error).message).to.equal("Internal error: height 99 must be less than or equal to 9");
      expect(node.calls.at(-1)).to.deep.equal({ over: "websocket", method: "abci_query" });
    } finally {
      stop();
      node.close();
    }
  });

  it("sends the query over HTTP when the websocket closes before its answer", async () => {
    const node = await fixtureWithWebsocket((_body, over) => (over === "websocket" ? "close" : VALUE));
    const { client, stop } = await watchingClient(node.url);
    try {
      expect((await client.abciQuery("/p", new Uint8Array())).height).to.equal(1234);
      expect(node.calls.filter((c) => c.method === "abci_query")).to.deep.equal([
        { over: "websocket", method: "abci_query" },
        { over: "http", method: "abci_query" },
      ]);
      // the socket is down now (the watch reconnects later): straight over HTTP
      expect((await client.abciQuery("/p", new Uint8Array())).height).to.equal(1234);
      expect(node.calls.at(-1)).to.deep.equal({ over: "http", method: "abci_query" });
    } finally {
      stop();
      node.close();
    }
  });

  it("gives up on a query the websocket does not answer within the timeout, with the same text as over HTTP", async () => {
    const node = await fixtureWithWebsocket(() => "hang");
    const { client, stop } = await watchingClient(node.url, 300);
    try {
      const failure = await client.abciQuery("/p", new Uint8Array()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(failure).to.be.instanceOf(NodeUnavailableError);
      expect((failure as Error).message).to.equal(`node ${node.url} is unavailable: no answer within 300 ms`);
    } finally {
      stop();
      node.close();
    }
  });
});
