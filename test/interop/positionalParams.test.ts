import { expect } from "chai";
import WebSocket from "ws";
import { sha256 } from "@cosmjs/crypto";
import { TendermintTxTracer } from "@keplr-wallet/cosmos";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { rpcSocket } from "../helpers/rpcSocket.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

type RpcAnswer = { id: unknown; result?: any; error?: { code: number; message: string; data?: string } };

/** One JSON-RPC call over HTTP POST. */
async function post(rpcUrl: string, method: string, params: unknown): Promise<RpcAnswer> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  return (await response.json()) as RpcAnswer;
}

describe("interop: JSON-RPC params as arrays in argument order (Keplr's TendermintTxTracer)", function () {
  this.timeout(60_000);
  const chain = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const rpcUrl = () => chain.node().rpcUrl;

  it("Keplr's tracer subscribes to blocks with positional params and traces a transaction to its result", async () => {
    const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
    const tracer = new TendermintTxTracer(rpcUrl(), "/websocket", { wsObject: WebSocket as never });
    try {
      const errors: string[] = [];
      tracer.addEventListener("message", (event: MessageEvent) => {
        const message = JSON.parse(String(event.data)) as RpcAnswer;
        // its first look-up of the transaction, before it is made, is expected to find nothing
        if (message.error && !/^tx \([0-9A-F]+\) not found$/.test(message.error.data ?? "")) errors.push(JSON.stringify(message.error));
      });
      await new Promise<void>((resolve) => tracer.addEventListener("open", () => resolve()));
      const blocks: number[] = [];
      const twoBlocks = new Promise<void>((resolve) =>
        tracer.subscribeBlock((block: { block: { header: { height: string } } }) => {
          blocks.push(Number(block.block.header.height));
          if (blocks.length === 2) resolve();
        }),
      );
      // Blocks are made when transactions wait: each of these sends makes one.
      const tx = await directTx(a, { messages: [send(a.address, b.address, "5")], sequence: 0, accountNumber: 0 });
      const hash = sha256(tx);
      const traced = tracer.traceTx(hash) as Promise<{ code?: number; events?: Array<{ type: string }> }>;
      const broadcast = await post(rpcUrl(), "broadcast_tx_sync", [Buffer.from(tx).toString("base64")]);
      expect(broadcast.error, JSON.stringify(broadcast.error)).to.equal(undefined);
      expect(broadcast.result.code).to.equal(0);
      const result = await traced;
      expect(result.code ?? 0).to.equal(0);
      expect((result.events ?? []).map((e) => e.type)).to.include("transfer");
      for (let sequence = 1; blocks.length < 2; sequence++) {
        const next = await directTx(a, { messages: [send(a.address, b.address, "5")], sequence, accountNumber: 0 });
        expect((await post(rpcUrl(), "broadcast_tx_commit", [Buffer.from(next).toString("base64")])).error).to.equal(undefined);
        if (sequence > 5) break;
      }
      await twoBlocks;
      expect(blocks[1]).to.be.greaterThan(blocks[0]!);
      expect(errors, "no subscription of the tracer was refused").to.deep.equal([]);
    } finally {
      tracer.close();
    }
  });

  it("every method takes its params as an array over HTTP POST; a wrong count is -32602", async () => {
    const query = await post(rpcUrl(), "abci_query", ["/store/bank/key", "", "0", false]);
    expect(query.error, JSON.stringify(query.error)).to.equal(undefined);
    const block = await post(rpcUrl(), "block", ["1"]);
    expect(block.result.block.header.height).to.equal("1");
    const validators = await post(rpcUrl(), "validators", ["1", "1", "30"]);
    expect(validators.result.block_height).to.equal("1");
    const search = await post(rpcUrl(), "tx_search", ["tx.height>0", false, "1", "30", "asc"]);
    expect(search.error, JSON.stringify(search.error)).to.equal(undefined);
    expect((await post(rpcUrl(), "status", [])).result.node_info).to.be.an("object");
    const wrong = await post(rpcUrl(), "block", ["1", "2"]);
    expect(wrong.error).to.deep.include({ code: -32602, message: "Invalid params" });
    expect(wrong.error!.data).to.include("expected 1 parameters (height), got 2");
  });

  it("subscribe, unsubscribe and other methods take positional params over the websocket", async () => {
    const { socket, arrived } = await rpcSocket(rpcUrl().replace(/^http/, "ws") + "/websocket");
    const call = async (id: number, method: string, params: unknown[]) => {
      socket.send(JSON.stringify({ jsonrpc: "2.0", method, params, id }));
      return arrived((m) => m.id === id);
    };
    try {
      expect((await call(11, "subscribe", ["tm.event='NewBlock'"])).result).to.deep.equal({});
      expect(((await call(12, "block", ["1"])).result as any).block.header.height).to.equal("1");
      expect((await call(13, "subscribe", ["tm.event='Tx'", "extra"])).error).to.deep.include({ code: -32602, message: "Invalid params" });
      expect((await call(14, "unsubscribe", ["tm.event='NewBlock'"])).result).to.deep.equal({});
      expect((await call(15, "subscribe", ["tm.event='Tx'"])).result).to.deep.equal({});
      expect((await call(16, "unsubscribe_all", [])).result).to.deep.equal({});
    } finally {
      socket.close();
    }
  });
});
