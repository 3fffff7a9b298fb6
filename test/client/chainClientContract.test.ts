import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { NodeRpcError, type ChainClient, type StreamedEvent } from "../../src/client/chainClient.js";
import { MeteredClient } from "../../src/client/meteredClient.js";
import { RpcClient } from "../../src/client/rpcClient.js";
import { SharedHeight } from "../../src/client/sharedHeight.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import { startRpcServer } from "../../src/node/rpc/rpcServer.js";
import { Telemetry } from "../../src/telemetry/telemetry.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { batchedSender, eachMessage } from "../../src/workers/batching.js";
import { ChannelClient } from "../../src/workers/channelClient.js";
import { MainLink } from "../../src/workers/mainLink.js";
import type { MainToWorker, WorkerToMain } from "../../src/workers/messages.js";
import { serveNodeCalls } from "../../src/workers/nodeCalls.js";
import { openDevNode, TEST_MNEMONIC } from "../helpers/devNode.js";
import { pollUntil } from "../helpers/poll.js";
import { addressBytes } from "../helpers/rawStore.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { TEST_TELEMETRY } from "../helpers/testTelemetry.js";

/**
 * The contract of ChainClient (src/client/chainClient.ts): one set of cases run against every
 * implementation over one embedded node, each answer compared with what the node itself says.
 *  - in-process: InProcessClient, the node in this process;
 *  - RPC: RpcClient over HTTP and the websocket to the node's JSON-RPC server on loopback;
 *  - channel: a REST worker's ChannelClient, its calls served by serveNodeCalls on the other end
 *    of a real message channel (structured clone, batched, as the cluster's IPC channel);
 *  - metered: MeteredClient with telemetry, around an RpcClient (what `gateway` runs).
 * Blocks come only when a case makes one (automatic blocks are off), so heights are stable.
 */
interface Subject {
  client: ChainClient;
  close(): void | Promise<void>;
}

/**
 * A REST worker's channel to the node's process over a MessagePort (structured clone, batched, as the
 * cluster's IPC channel), with the main process's part as `start` plays it (nodeRestWorkers.ts): the
 * node's calls served by serveNodeCalls, and each new height written to the shared file, then sent.
 */
function channelPair(node: EmbeddedNode, height: SharedHeight): Subject {
  const { port1, port2 } = new MessageChannel();
  const onPort =
    <M>(port: MessagePort) =>
    (listener: (message: M) => void) =>
      port.on("message", (received) => eachMessage(received, listener));
  const exitListeners: Array<() => void> = [];
  const mainSend = batchedSender<MainToWorker>((batch) => port1.postMessage(batch));
  serveNodeCalls({ send: mainSend, onMessage: onPort<WorkerToMain>(port1), onExit: (l) => exitListeners.push(l) }, new InProcessClient(node));
  const onHeight = (latest: number) => {
    height.write(0, latest);
    mainSend({ kind: "height", latest });
  };
  node.prependListener("commit", onHeight);
  node.prependListener("pruned", onHeight);
  const link = new MainLink({ send: batchedSender<WorkerToMain>((batch) => port2.postMessage(batch)), onMessage: onPort<MainToWorker>(port2) });
  return {
    client: new ChannelClient(link, height),
    close: () => {
      node.off("commit", onHeight);
      node.off("pruned", onHeight);
      for (const l of exitListeners) l();
      port1.close();
      port2.close();
    },
  };
}

const TELEMETRY = TEST_TELEMETRY;

const IMPLEMENTATIONS: Array<{ name: string; signer: number; make(node: EmbeddedNode, rpcUrl: string, height: SharedHeight): Subject }> = [
  { name: "InProcessClient (the node in this process)", signer: 0, make: (node) => ({ client: new InProcessClient(node), close: () => undefined }) },
  { name: "RpcClient (JSON-RPC over HTTP to the node)", signer: 1, make: (_node, url) => ({ client: new RpcClient(url), close: () => undefined }) },
  { name: "ChannelClient (a REST worker's message channel)", signer: 2, make: (node, _url, height) => channelPair(node, height) },
  {
    name: "MeteredClient (with telemetry, around RPC)",
    signer: 3,
    make: (_node, url) => ({ client: new MeteredClient(new RpcClient(url), new Telemetry(TELEMETRY)), close: () => undefined }),
  },
];

const accountKey = (address: string) => Uint8Array.of(0x01, ...addressBytes(address));
/** x/bank's balance key in v0.41: "balances" | address | denom. */
const balanceKey = (address: string) => Uint8Array.of(...Buffer.from("balances"), ...addressBytes(address), ...Buffer.from("uhub"));
const bytes = (value: Uint8Array) => Buffer.from(value).toString("hex");

describe("ChainClient contract: the same answers from every implementation", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  let rpc: RunningServer;
  let height: SharedHeight;
  /** The node's own answers, which every implementation must give. */
  let reference: InProcessClient;

  before(async () => {
    ({ node, addresses } = await openDevNode({ accounts: 6 }));
    node.autoBlocks = false;
    await node.produceBlock(); // a height before the cases' own
    reference = new InProcessClient(node);
    rpc = await startRpcServer(node, reference, "tcp://127.0.0.1:0");
    reference.rpcListensAt(rpc.url.replace(/^http:/, "tcp:"));
    height = SharedHeight.create(1);
    height.write(0, node.height);
  });
  after(async () => {
    height?.remove();
    await rpc?.close();
    await node?.close();
  });

  for (const implementation of IMPLEMENTATIONS) {
    describe(implementation.name, () => {
      let subject: Subject;
      let client: ChainClient;
      before(() => {
        subject = implementation.make(node, rpc.url, height);
        client = subject.client;
      });
      after(() => subject?.close());

      it("status: the chain, its latest height, not catching up", async () => {
        const status = await client.status();
        expect(status.node_info.network).to.equal("devnet-1");
        expect(status.sync_info.latest_block_height).to.equal(String(node.height));
        expect(status.sync_info.catching_up).to.equal(false);
        expect(status.validator_info).to.deep.equal((await reference.status()).validator_info);
      });

      it("abciQuery at the latest height: the stored account, answered at the latest height", async () => {
        const answer = await client.abciQuery("/store/acc/key", accountKey(addresses[0]!));
        const expected = await reference.abciQuery("/store/acc/key", accountKey(addresses[0]!));
        expect(answer.code).to.equal(0);
        expect(answer.height).to.equal(node.height);
        expect(answer.value.length).to.be.greaterThan(0);
        expect(bytes(answer.value)).to.equal(bytes(expected.value));
      });

      it("abciQuery at a height: the state of that height, answered at it", async () => {
        const at = node.height - 1;
        const answer = await client.abciQuery("/store/bank/key", balanceKey(addresses[0]!), at);
        expect(answer.code).to.equal(0);
        expect(answer.height).to.equal(at);
        expect(answer.value.length).to.be.greaterThan(0);
        expect(bytes(answer.value)).to.equal(bytes((await reference.abciQuery("/store/bank/key", balanceKey(addresses[0]!), at)).value));
      });

      it("abciQuery of a missing key: code 0 and an empty value", async () => {
        const answer = await client.abciQuery("/store/acc/key", Uint8Array.of(0x01, ...randomBytes(20)));
        expect(answer.code).to.equal(0);
        expect(answer.value.length).to.equal(0);
        expect(answer.height).to.equal(node.height);
      });

      it("abciQuery at a height the node does not have: the node's refusal, the same from each", async () => {
        const future = node.height + 10_000;
        const answer = await client.abciQuery("/store/acc/key", accountKey(addresses[0]!), future);
        const expected = await reference.abciQuery("/store/acc/key", accountKey(addresses[0]!), future);
        expect(answer.log).to.equal("version does not exist");
        expect({ ...answer, value: bytes(answer.value) }).to.deep.equal({ ...expected, value: bytes(expected.value) });
      });

      it("abciQuery of an unknown path: the node's error code and log", async () => {
        const answer = await client.abciQuery("/app/nope", new Uint8Array());
        expect(answer.code).to.equal(6);
        expect(answer.log).to.equal("unknown query: [app nope]: unknown request");
      });

      let sentHash = "";
      let sentTx: Uint8Array = new Uint8Array();
      it("broadcastTx sync: the check's code and the transaction's hash; bytes that are no transaction are refused", async () => {
        const signer = await testSigner(TEST_MNEMONIC, implementation.signer);
        sentTx = await directTx(signer, { messages: [send(signer.address, addresses[5]!, "7")], sequence: 0, accountNumber: implementation.signer });
        const result = await client.broadcastTx(sentTx, "sync");
        sentHash = createHash("sha256").update(sentTx).digest("hex").toUpperCase();
        expect(result).to.include({ code: 0, hash: sentHash });
        const refused = await client.broadcastTx(Uint8Array.of(1, 2, 3), "sync");
        expect(refused.code).to.be.greaterThan(0);
        expect(refused.codespace).to.equal("sdk");
      });

      it("tx by hash once committed: the same result as the node's; an unknown hash is the node's RPC error", async () => {
        expect(sentHash, "the broadcast case ran").to.not.equal("");
        await node.produceBlock();
        const hash = Buffer.from(sentHash, "hex");
        const found = await client.tx(hash);
        expect(found.hash).to.equal(sentHash);
        expect(found.height).to.equal(String(node.height));
        expect(found.tx).to.equal(Buffer.from(sentTx).toString("base64"));
        expect(found).to.deep.equal(await reference.tx(hash));
        const unknown = randomBytes(32);
        const failure = await client.tx(unknown).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(failure).to.be.instanceOf(NodeRpcError);
        expect((failure as NodeRpcError).data).to.equal(`tx (${unknown.toString("hex").toUpperCase()}) not found`);
      });

      it("txSearch: the committed transaction by its height", async () => {
        const found = await client.txSearch(`tx.height=${node.height}`);
        expect(found.total_count).to.equal("1");
        expect(found.txs.map((t) => t.hash)).to.deep.equal([sentHash]);
      });

      it("block: the latest and one at a height, as the node has them", async () => {
        const latest = (await client.block()) as { block: { header: { height: string } } };
        expect(latest.block.header.height).to.equal(String(node.height));
        const at = node.height - 1;
        const earlier = await client.block(at);
        expect(earlier).to.deep.equal(await reference.block(at));
        expect((earlier as { block: { header: { height: string } } }).block.header.height).to.equal(String(at));
      });

      it("validators: the set at a height, as the node has it", async () => {
        const at = node.height - 1;
        const set = (await client.validators(at)) as { block_height: string; validators: unknown[]; total: string };
        expect(set.block_height).to.equal(String(at));
        expect(set.validators.length).to.be.greaterThan(0);
        expect(set.validators).to.deep.equal(((await reference.validators(at)) as { validators: unknown[] }).validators);
      });

      it("subscribeEvents and watchHeights: the next block's NewBlock event, and its height", async () => {
        const events: StreamedEvent[] = [];
        const heights: Array<number | undefined> = [];
        let told: (() => void) | undefined;
        const wait = () => new Promise<void>((resolve) => (told = resolve));
        const arrived = wait();
        const stop = await client.subscribeEvents!("tm.event='NewBlock'", {
          event: (event) => {
            events.push(event);
            told?.();
          },
          end: () => undefined,
        });
        const unwatch = client.watchHeights!((latest) => heights.push(latest));
        await node.produceBlock();
        await arrived;
        expect(events).to.have.length(1);
        expect(events[0]!.data.type).to.equal("tendermint/event/NewBlock");
        expect((events[0]!.data.value as { block: { header: { height: string } } }).block.header.height).to.equal(String(node.height));
        expect(events[0]!.events["tm.event"]).to.deep.equal(["NewBlock"]);
        stop();
        // the height watch is told this block too (over RPC by its own subscription, which may trail the event)
        await pollUntil(
          async () => heights,
          (told) => told.includes(node.height),
        );
        unwatch();
        expect(heights.every((h) => h === undefined || h <= node.height)).to.equal(true);
      });
    });
  }
});
