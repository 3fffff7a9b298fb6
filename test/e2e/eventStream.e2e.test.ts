import { expect } from "chai";
import { MsgDelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { EventSource } from "eventsource";
import path from "node:path";
import { UpstreamEvents } from "../../src/client/upstreamEvents.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { http } from "../helpers/http.js";
import { pollUntil } from "../helpers/poll.js";
import { startGateway, startNode, type RunningProcess, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";

interface Received {
  id: string;
  result: { query: string; data: { type: string; value: any }; events: Record<string, string[]> };
}

/** An EventSource (the `eventsource` package) on GET /events, keeping what it receives. */
class Stream {
  readonly received: Received[] = [];
  private readonly source: EventSource;
  readonly opened: Promise<void>;

  constructor(restUrl: string, query: string) {
    this.source = new EventSource(`${restUrl}/events?query=${encodeURIComponent(query)}`);
    this.source.onmessage = (message) => this.received.push({ id: message.lastEventId, result: JSON.parse(message.data as string) as Received["result"] });
    this.opened = new Promise((resolve, reject) => {
      this.source.onopen = () => resolve();
      this.source.onerror = (err) => reject(new Error(`the stream failed before it opened: ${err.message ?? err.code ?? ""}`));
    });
  }

  /** Waits (bounded by the test's timeout) for a message that fits. */
  async next(fits: (r: Received) => boolean): Promise<Received> {
    return pollUntil(
      async () => this.received.find(fits),
      (r) => r !== undefined,
    ) as Promise<Received>;
  }

  close(): void {
    this.source.close();
  }
}

/** The first messages (id and data) of a stream asked with these headers, read with fetch. */
async function firstMessages(url: string, headers: Record<string, string>, count: number): Promise<Array<{ id?: string; data: any }>> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  expect(response.status).to.equal(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const messages: Array<{ id?: string; data: any }> = [];
  while (messages.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = text.indexOf("\n\n")) >= 0) {
      const lines = text.slice(0, end).split("\n");
      text = text.slice(end + 2);
      const data = lines.find((l) => l.startsWith("data: "));
      if (data) messages.push({ id: lines.find((l) => l.startsWith("id: "))?.slice(4), data: JSON.parse(data.slice(6)) });
    }
  }
  abort.abort();
  return messages.slice(0, count);
}

/**
 * GET /events (server-sent events) read with the `eventsource` package: a
 * signed tx sent over REST arrives as its Tx event and its block's NewBlock,
 * from `chain-rest start` (the in-process node's events) and from `chain-rest
 * gateway --node` (the node's websocket); bad queries and the limits answer
 * in the gateway's error body before any stream starts.
 */
describe("e2e: GET /events as server-sent events", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let gateway: { proc: RunningProcess; restUrl: string };
  let signers: TestSigner[];
  const open: Stream[] = [];
  const stream = async (restUrl: string, query: string) => {
    const s = new Stream(restUrl, query);
    open.push(s);
    await s.opened;
    return s;
  };

  before(async () => {
    initDevHome(home, { accounts: 6, mnemonic: TEST_MNEMONIC });
    signers = await Promise.all([...Array(6).keys()].map((i) => testSigner(TEST_MNEMONIC, i)));
    node = await startNode(home);
    gateway = await startGateway(path.join(tempDir(), "gateway-home"), node.rpcUrl);
  });

  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });

  after(async () => {
    await gateway?.proc.stop();
    await node?.proc.stop();
  });

  const modes = [
    { name: "chain-rest start", url: () => node.restUrl, from: 0, to: 1, delegator: 4 },
    { name: "chain-rest gateway --node", url: () => gateway.restUrl, from: 2, to: 3, delegator: 5 },
  ];
  /** The node's JSON-RPC (the dev chain's steering methods and broadcast_tx_sync). */
  const rpc = async (method: string, params: Record<string, unknown>) => {
    const r = await http(node.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    expect(r.body.error, r.text).to.equal(undefined);
    return r.body.result as Record<string, any>;
  };
  const latestHeight = async () => Number((await rpc("status", {})).sync_info.latest_block_height);

  for (const mode of modes) {
    describe(mode.name, () => {
      it("streams a sent tx's Tx event and its block's NewBlock, with the height (and tx index) as the event id", async () => {
        const from = signers[mode.from]!;
        const to = signers[mode.to]!;
        const txQuery = `tm.event='Tx' AND transfer.recipient='${to.address}'`;
        const txs = await stream(mode.url(), txQuery);
        const blocks = await stream(mode.url(), "tm.event='NewBlock'");
        const tx = await directTx(from, { messages: [send(from.address, to.address, "1000")], sequence: 0, accountNumber: mode.from });
        const r = await http(`${mode.url()}/core/tx/v1beta1/txs`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
        });
        expect(r.status, r.text).to.equal(200);
        const { txhash, height } = r.body.tx_response as { txhash: string; height: string };

        const seenTx = await txs.next((m) => m.result.events["tx.hash"]?.[0] === txhash);
        expect(seenTx.id).to.equal(`${height}.0`);
        expect(seenTx.result.query).to.equal(txQuery);
        expect(seenTx.result.data.type).to.equal("tendermint/event/Tx");
        expect(seenTx.result.data.value.TxResult.height).to.equal(height);
        expect(seenTx.result.data.value.TxResult.tx).to.equal(Buffer.from(tx).toString("base64"));
        expect(seenTx.result.events["transfer.recipient"]).to.include(to.address);
        expect(seenTx.result.events["tm.event"]).to.deep.equal(["Tx"]);

        const seenBlock = await blocks.next((m) => m.id === height);
        expect(seenBlock.result.query).to.equal("tm.event='NewBlock'");
        expect(seenBlock.result.data.type).to.equal("tendermint/event/NewBlock");
        expect(seenBlock.result.data.value.block.header.height).to.equal(height);
        expect(seenBlock.result.data.value.block.data.txs).to.include(Buffer.from(tx).toString("base64"));
        // the Tx stream held only what matched its query
        expect(txs.received.every((m) => m.result.data.type === "tendermint/event/Tx")).to.equal(true);

        // Last-Event-ID: a client that saw the block before resumes from the tx's block, read from the node's past blocks
        const resumedBlocks = await firstMessages(
          `${mode.url()}/events?query=${encodeURIComponent("tm.event='NewBlock'")}`,
          { "Last-Event-ID": String(Number(height) - 1) },
          1,
        );
        expect(resumedBlocks[0]!.id).to.equal(height);
        expect(resumedBlocks[0]!.data.data.value.block.header.height).to.equal(height);
        const resumedTxs = await firstMessages(`${mode.url()}/events?query=${encodeURIComponent(txQuery)}`, { "Last-Event-ID": `${Number(height) - 1}.5` }, 1);
        expect(resumedTxs[0]).to.deep.equal({ id: `${height}.0`, data: seenTx.result });
      });

      it("resumes within a block: Last-Event-ID H.0 is followed by H's later txs, then the next block's", async () => {
        const from = signers[mode.from]!;
        const to = signers[mode.to]!;
        const txQuery = `tm.event='Tx' AND transfer.recipient='${to.address}'`;
        const account = await http(`${mode.url()}/core/auth/v1beta1/accounts/${from.address}`);
        const first = Number(account.body.account.sequence);
        // three sends in one block (blocks made only when asked), then a fourth in the next
        await rpc("set_auto_blocks", { enabled: false });
        try {
          for (let i = 0; i < 4; i++) {
            const tx = await directTx(from, { messages: [send(from.address, to.address, "7")], sequence: first + i, accountNumber: mode.from });
            expect((await rpc("broadcast_tx_sync", { tx: Buffer.from(tx).toString("base64") })).code).to.equal(0);
            if (i >= 2) await rpc("advance_blocks", { num_blocks: "1" });
          }
        } finally {
          await rpc("set_auto_blocks", { enabled: true });
        }
        const next = await latestHeight();
        const height = next - 1;
        expect((await rpc("block", { height: String(height) })).block.data.txs).to.have.length(3);
        const url = `${mode.url()}/events?query=${encodeURIComponent(txQuery)}`;
        const afterFirst = await firstMessages(url, { "Last-Event-ID": `${height}.0` }, 3);
        expect(afterFirst.map((m) => m.id)).to.deep.equal([`${height}.1`, `${height}.2`, `${next}.0`]);
        expect(afterFirst.map((m) => m.data.data.value.TxResult.height)).to.deep.equal([String(height), String(height), String(next)]);
        // id H (a NewBlock's): the client saw none of H's txs
        const afterBlock = await firstMessages(url, { "Last-Event-ID": String(height) }, 1);
        expect(afterBlock[0]!.id).to.equal(`${height}.0`);
      });

      it("replays a past ValidatorSetUpdates as it was streamed live", async () => {
        const delegator = signers[mode.delegator]!;
        const query = "tm.event='ValidatorSetUpdates'";
        const live = await stream(mode.url(), query);
        const validators = await http(`${mode.url()}/core/staking/v1beta1/validators?status=BOND_STATUS_BONDED`);
        const operator = (validators.body.validators as Array<{ operator_address: string }>)[0]!.operator_address;
        const delegate = {
          typeUrl: "/core.staking.v1beta1.MsgDelegate",
          value: MsgDelegate.fromPartial({ delegatorAddress: delegator.address, validatorAddress: operator, amount: { denom: "uhub", amount: "3000000" } }),
        };
        const tx = await directTx(delegator, { messages: [delegate], sequence: 0, accountNumber: mode.delegator });
        const r = await http(`${mode.url()}/core/tx/v1beta1/txs`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
        });
        expect(r.body.tx_response.code, r.text).to.equal(0);
        const height = Number(r.body.tx_response.height);
        const seen = await live.next(() => true);
        expect(seen.id).to.equal(""); // it names no height
        const updates = seen.result.data.value.validator_updates as Array<{ voting_power: string }>;
        expect(updates).to.have.length(1);
        const replayed = await firstMessages(`${mode.url()}/events?query=${encodeURIComponent(query)}`, { "Last-Event-ID": String(height - 1) }, 1);
        expect(replayed[0]).to.deep.equal({ id: undefined, data: seen.result });
      });

      it("answers a bad query 400 in the gateway's error body, before any stream", async () => {
        const bad = await http(`${mode.url()}/events?query=${encodeURIComponent("tm.event='NewBlock")}`);
        expect(bad.status, bad.text).to.equal(400);
        expect(bad.headers.get("content-type")).to.match(/^application\/json/);
        expect(bad.body.code).to.equal(3);
        expect(bad.body.message).to.match(/^failed to parse query: /);
        expect(bad.body.details).to.deep.equal([]);
        const missing = await http(`${mode.url()}/events`);
        expect(missing.status).to.equal(400);
        expect(missing.body.message).to.match(/query is required/);
        const long = await http(`${mode.url()}/events?query=${encodeURIComponent(`tx.memo='${"a".repeat(600)}'`)}`);
        expect(long.status).to.equal(400);
        expect(long.body.message).to.equal("maximum query length exceeded");
      });

      it("refuses a sixth stream of one client with 429 (max_subscriptions_per_client 5)", async () => {
        // the previous tests' streams are closed, but the server may not have seen every close yet: retry until it has
        for (let i = 0; i < 5; i++)
          await pollUntil(
            () => stream(mode.url(), `tm.event='NewBlock' AND block.height >= ${i}`).catch(() => undefined),
            (s) => s !== undefined,
          );
        const sixth = await http(`${mode.url()}/events?query=${encodeURIComponent("tm.event='NewBlockHeader'")}`);
        expect(sixth.status, sixth.text).to.equal(429);
        expect(sixth.body).to.deep.equal({ code: 8, message: "max_subscriptions_per_client 5 reached", details: [] });
      });
    });
  }

  it("holds one upstream subscription per distinct query, shared by its listeners (gateway --node's client)", async () => {
    const upstream = new UpstreamEvents(node.rpcUrl, 10_000);
    const ignore = () => ({ event: () => undefined, end: () => undefined });
    const a = await upstream.subscribe("tm.event='NewBlock'", ignore());
    const b = await upstream.subscribe("tm.event='NewBlock'", ignore());
    const c = await upstream.subscribe("tm.event='Tx'", ignore());
    expect(upstream.size).to.equal(2);
    a();
    expect(upstream.size).to.equal(2); // b still listens
    b();
    c();
    expect(upstream.size).to.equal(0);
  });
});
