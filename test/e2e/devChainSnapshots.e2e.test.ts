import { expect } from "chai";
import nodeHttp from "node:http";
import { makeCosmoshubPath } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
import { coins, SigningStargateClient, StargateClient, type StdFee } from "@cosmjs/stargate";
import { HttpClient } from "@cosmjs/tendermint-rpc";
import { TxRaw } from "cosmjs-types/cosmos/tx/v1beta1/tx";
import { http } from "../helpers/http.js";
import { pollUntil } from "../helpers/poll.js";
import { rpcSocket } from "../helpers/rpcSocket.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { connectSigningClient } from "../helpers/signingClient.js";
import { startCosmosProfileChain, type CosmosProfileChain } from "../helpers/cosmosProfileChain.js";

type Json = Record<string, any>;
const FEE: StdFee = { amount: coins(5000, "uhub"), gas: "200000" };
const HEIGHT_HEADER = "x-cosmos-block-height";

/**
 * snapshot and revert on a started dev chain (names "cosmos", so the
 * unmodified cosmjs reads it), with a `gateway --node` in front: what cosmjs
 * clients, websocket subscribers, the REST answer caches and HTTP caching see
 * before and after a revert.
 */
describe("e2e: dev chain snapshots (snapshot, revert)", function () {
  this.timeout(120_000);
  let chain: CosmosProfileChain;
  let rpc: HttpClient;
  let reader: StargateClient;
  let sender: SigningStargateClient;
  let from: string;
  let to: string;

  before(async () => {
    chain = await startCosmosProfileChain(6);
    rpc = new HttpClient(chain.node.rpcUrl);
    reader = await StargateClient.connect(chain.node.rpcUrl);
    const wallet = await DirectSecp256k1HdWallet.fromMnemonic(TEST_MNEMONIC, { prefix: "hub", hdPaths: [makeCosmoshubPath(2), makeCosmoshubPath(4)] });
    [from, to] = (await wallet.getAccounts()).map((a) => a.address) as [string, string];
    sender = await connectSigningClient(chain.node.rpcUrl, wallet);
  });
  after(async () => {
    reader?.disconnect();
    sender?.disconnect();
    await chain?.stop();
  });

  const call = async (method: string, params: Record<string, string | boolean> = {}): Promise<Json> =>
    (await rpc.execute({ jsonrpc: "2.0", id: 1, method, params })).result as Json;
  const rpcError = async (method: string, params: Record<string, unknown>) =>
    (await http(chain.node.rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }) })).body.error as Json;
  const balanceRoute = (address: string) => `/cosmos/bank/v1beta1/balances/${address}/uhub`;
  const restBalance = async (base: string, address: string) => (await http(`${base}${balanceRoute(address)}`)).body.balance?.amount as string;
  /** The balance over REST from the node and the gateway, asked twice each (the second answer may come from the answer caches). */
  const restBalances = async (address: string) => {
    const answers: string[] = [];
    for (let ask = 0; ask < 2; ask++) for (const base of [chain.node.restUrl, chain.gateway.restUrl]) answers.push(await restBalance(base, address));
    return answers;
  };

  it("a tx found by hash and a balance moved before the revert are gone after it; the height is reused by the next block", async () => {
    const balanceRest = await http(`${chain.node.restUrl}${balanceRoute(to)}`);
    expect(balanceRest.status, balanceRest.text).to.equal(200);
    const before = (await reader.getBalance(to, "uhub")).amount;
    const taken = await call("snapshot");
    expect(taken).to.have.keys("snapshot_id", "height");
    const snapshotHeight = Number(taken.height);

    const socket = await rpcSocket(`${chain.node.rpcUrl.replace(/^http/, "ws")}/websocket`);
    expect((await socket.call("subscribe", { query: "tm.event='NewBlock'" })).result).to.deep.equal({});
    const stream = await eventStream(`${chain.node.restUrl}/events?query=${encodeURIComponent("tm.event='NewBlock'")}`);

    const sent = await sender.sendTokens(from, to, coins(777, "uhub"), FEE);
    expect(sent.code, sent.rawLog).to.equal(0);
    expect(sent.height).to.be.greaterThan(snapshotHeight);
    expect((await reader.getTx(sent.transactionHash))?.height).to.equal(sent.height);
    const after = String(BigInt(before) + 777n);
    expect((await reader.getBalance(to, "uhub")).amount).to.equal(after);
    // the gateway's cache follows its NewBlock feed: wait until it has seen the block, then its answers are kept too
    expect(
      await pollUntil(
        () => restBalances(to),
        (all) => all.every((a) => a === after),
      ),
    ).to.have.length(4);
    const forgottenBlock = (await call("block", { height: String(snapshotHeight + 1) })).block_id.hash as string;

    expect(await call("revert", { snapshot_id: taken.snapshot_id })).to.deep.equal({ height: taken.height });

    expect(await reader.getHeight()).to.equal(snapshotHeight);
    expect(await reader.getTx(sent.transactionHash)).to.equal(null);
    expect((await reader.getBalance(to, "uhub")).amount).to.equal(before);
    expect((await reader.searchTx(`tx.height=${sent.height}`)).length).to.equal(0);
    // the node's own REST server is told at the revert; the gateway when the node ends its NewBlock subscription
    expect(await restBalance(chain.node.restUrl, to)).to.equal(before);
    expect(await restBalance(chain.node.restUrl, to)).to.equal(before);
    expect(
      await pollUntil(
        () => restBalances(to),
        (all) => all.every((a) => a === before),
      ),
    ).to.have.length(4);
    const cancelled = await socket.arrived((m) => m.id === "call-0" && m.error !== undefined);
    expect(cancelled.error).to.deep.include({ code: -32000, message: "Server error" });
    expect(cancelled.error!.data).to.equal(`subscription was cancelled (reason: the dev chain was reverted to height ${snapshotHeight})`);
    socket.socket.close();
    // the REST server's event stream ends too, saying why (EventSource then reconnects)
    expect(await stream.ended).to.include(`: the dev chain was reverted to height ${snapshotHeight}\n\n`);

    // the same transaction may be sent again: it lands at a reused height, in a block of its own
    const again = await sender.sendTokens(from, to, coins(777, "uhub"), FEE);
    expect(again.code, again.rawLog).to.equal(0);
    expect(again.height).to.equal(snapshotHeight + 1);
    expect((await reader.getTx(again.transactionHash))?.height).to.equal(snapshotHeight + 1);
    expect((await call("block", { height: String(snapshotHeight + 1) })).block_id.hash).to.not.equal(forgottenBlock);
    expect(
      await pollUntil(
        () => restBalances(to),
        (all) => all.every((a) => a === after),
      ),
    ).to.have.length(4);
  });

  it("answers pinned to a height are not marked immutable once a snapshot was taken", async () => {
    const height = String(await reader.getHeight());
    const pinned = await http(`${chain.node.restUrl}${balanceRoute(to)}`, { headers: { [HEIGHT_HEADER]: height } });
    expect(pinned.status, pinned.text).to.equal(200);
    expect(pinned.headers.get("cache-control")).to.equal("no-cache");
    expect(pinned.headers.get("etag")).to.match(new RegExp(`^W/"${height}-`));
  });

  it("reverting to an earlier snapshot forgets it and every later one; an unknown id is Invalid params", async () => {
    const first = await call("snapshot");
    await call("advance_blocks", { num_blocks: "3" });
    const second = await call("snapshot");
    expect(Number(second.snapshot_id)).to.be.greaterThan(Number(first.snapshot_id));
    await call("advance_blocks", { num_blocks: "2" });
    expect(await call("revert", { snapshot_id: first.snapshot_id })).to.deep.equal({ height: first.height });
    expect(await reader.getHeight()).to.equal(Number(first.height));
    for (const id of [second.snapshot_id, first.snapshot_id, "987654"]) {
      const error = await rpcError("revert", { snapshot_id: id });
      expect(error.code).to.equal(-32602);
      expect(error.data).to.include(`snapshot ${id} is unknown`);
    }
    expect((await rpcError("revert", {})).data).to.include("snapshot_id is required");
    expect(await reader.getHeight()).to.equal(Number(first.height));
  });

  it("the mempool comes back as it was: a waiting transaction mined after the snapshot waits again", async () => {
    await call("set_auto_blocks", { enabled: false });
    try {
      const account = await reader.getSequence(from);
      const send = { typeUrl: "/cosmos.bank.v1beta1.MsgSend", value: { fromAddress: from, toAddress: to, amount: coins(5, "uhub") } };
      const signed = await sender.sign(from, [send], FEE, "", { ...account, chainId: await reader.getChainId() });
      const hash = await reader.broadcastTxSync(TxRaw.encode(signed).finish());
      const taken = await call("snapshot");
      expect((await call("num_unconfirmed_txs")).n_txs).to.equal("1");
      await call("advance_blocks", { num_blocks: "2" });
      expect((await reader.getTx(hash))?.height).to.equal(Number(taken.height) + 1);
      expect((await call("num_unconfirmed_txs")).n_txs).to.equal("0");

      await call("revert", { snapshot_id: taken.snapshot_id });
      expect(await reader.getTx(hash)).to.equal(null);
      expect((await call("num_unconfirmed_txs")).n_txs).to.equal("1");
      await call("advance_blocks", { num_blocks: "1" });
      expect((await reader.getTx(hash))?.height).to.equal(Number(taken.height) + 1);
    } finally {
      await call("set_auto_blocks", { enabled: true });
    }
  });
});

/** A GET of a server-sent event stream: resolves once its head came; `ended` gives the whole text once the server ends it. */
function eventStream(url: string): Promise<{ ended: Promise<string> }> {
  return new Promise((resolve, reject) => {
    nodeHttp
      .get(url, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        resolve({ ended: new Promise((done) => res.on("end", () => done(text))) });
      })
      .on("error", reject);
  });
}
