import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { MsgDelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { Tendermint34Client } from "tendermint-rpc-tm34";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { rpcSocket } from "../helpers/rpcSocket.js";

describe("interop: the node's event subscriptions (Tendermint 0.34's query language, events and limits)", function () {
  this.timeout(90_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  const wsUrl = () => node.rpcUrl.replace(/^http/, "ws") + "/websocket";

  before(async () => {
    initDevHome(home, { accounts: 4, mnemonic: TEST_MNEMONIC });
    const config = path.join(home, "config", "config.toml");
    fs.writeFileSync(config, fs.readFileSync(config, "utf8").replace("max_subscription_clients = 100", "max_subscription_clients = 2"));
    node = await startNode(home);
  });
  after(() => node?.proc.stop());

  it("delivers NewBlock, NewBlockHeader and Tx events to queries on attributes and ranges", async () => {
    const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
    const client = await rpcSocket(wsUrl());
    const queries = {
      header: "tm.event='NewBlockHeader'",
      block: "tm.event = 'NewBlock'",
      recipient: `tm.event='Tx' AND transfer.recipient='${b.address}'`,
      range: `tx.height >= 2 AND message.sender='${a.address}' AND transfer.amount > 40`,
      other: `tm.event='Tx' AND transfer.recipient='${a.address}'`,
    };
    for (const query of Object.values(queries)) expect((await client.call("subscribe", { query })).result).to.deep.equal({});
    const tx = await directTx(a, { messages: [send(a.address, b.address, "42")], sequence: 0, accountNumber: 0 });
    const broadcast = (await (await fetch(`${node.rpcUrl}/broadcast_tx_commit?tx=0x${Buffer.from(tx).toString("hex")}`)).json()) as {
      result: { hash: string; height: string };
    };
    const { hash, height } = broadcast.result;
    const event = (query: string) => client.arrived((m) => m.result?.query === query && m.result.data !== undefined);
    const header = await event(queries.header);
    expect(header.result!.data!.type).to.equal("tendermint/event/NewBlockHeader");
    expect(header.result!.events!["tm.event"]).to.deep.equal(["NewBlockHeader"]);
    expect((await event(queries.block)).result!.data!.type).to.equal("tendermint/event/NewBlock");
    for (const query of [queries.recipient, queries.range]) {
      const txEvent = await event(query);
      expect(txEvent.result!.data!.type).to.equal("tendermint/event/Tx");
      expect(txEvent.result!.events!["tx.hash"]).to.deep.equal([hash]);
      expect(txEvent.result!.events!["tx.height"]).to.deep.equal([height]);
    }
    // the block of the tx came through every matching subscription; the one for other recipients stayed silent
    await client.arrived((m) => m.result?.query === queries.header && (m.result.data?.value.header as { height: string }).height === height);
    expect(client.messages.filter((m) => m.result?.query === queries.other)).to.deep.equal([]);
    client.socket.close();
  });

  it("publishes ValidatorSetUpdates when a delegation changes the validator's power", async () => {
    const delegator = await testSigner(TEST_MNEMONIC, 2);
    const validators = (await (await fetch(`${node.restUrl}/core/staking/v1beta1/validators?status=BOND_STATUS_BONDED`)).json()) as {
      validators: Array<{ operator_address: string }>;
    };
    const operator = validators.validators[0]!.operator_address;
    const client = await rpcSocket(wsUrl());
    expect((await client.call("subscribe", { query: "tm.event='ValidatorSetUpdates'" })).result).to.deep.equal({});
    const before = (await (await fetch(`${node.rpcUrl}/validators`)).json()) as { result: { validators: Array<{ address: string; voting_power: string }> } };
    const delegate = {
      typeUrl: "/core.staking.v1beta1.MsgDelegate",
      value: MsgDelegate.fromPartial({ delegatorAddress: delegator.address, validatorAddress: operator, amount: { denom: "uhub", amount: "3000000" } }),
    };
    const tx = await directTx(delegator, { messages: [delegate], sequence: 0, accountNumber: 2 });
    const broadcast = (await (await fetch(`${node.rpcUrl}/broadcast_tx_commit?tx=0x${Buffer.from(tx).toString("hex")}`)).json()) as {
      result: { deliver_tx: { code?: number; log: string } };
    };
    expect(broadcast.result.deliver_tx.code ?? 0, broadcast.result.deliver_tx.log).to.equal(0);
    const update = await client.arrived((m) => m.result?.data?.type === "tendermint/event/ValidatorSetUpdates");
    const updates = update.result!.data!.value.validator_updates as Array<{ address: string; voting_power: string }>;
    expect(updates).to.have.length(1);
    const was = before.result.validators.find((v) => v.address === updates[0]!.address);
    expect(Number(updates[0]!.voting_power)).to.equal(Number(was!.voting_power) + 3);
    client.socket.close();
  });

  it("cosmjs's Tendermint34Client reads tx_search and block_search pages over the event index", async () => {
    const client = await Tendermint34Client.connect(node.rpcUrl);
    try {
      const sender = (await testSigner(TEST_MNEMONIC, 0)).address;
      const txs = await client.txSearchAll({ query: `message.sender='${sender}'`, per_page: 1 });
      expect(txs.totalCount).to.be.at.least(1);
      expect(txs.txs.map((tx) => tx.height)).to.deep.equal([...txs.txs.map((tx) => tx.height)].sort((x, y) => x - y));
      const height = (await client.status()).syncInfo.latestBlockHeight;
      const blocks = await client.blockSearch({ query: `block.height >= ${height - 1}`, per_page: 5 });
      expect(blocks.totalCount).to.equal(2);
      // cosmjs sorts the page by height itself; over the wire it comes newest first, as the engine orders it by default
      expect(blocks.blocks.map((b) => b.block.header.height)).to.deep.equal([height - 1, height]);
      const raw = (await (await fetch(`${node.rpcUrl}/block_search?query=${encodeURIComponent(`"block.height >= ${height - 1}"`)}`)).json()) as {
        result: { blocks: Array<{ block: { header: { height: string } } }>; total_count: string };
      };
      expect(raw.result.blocks.map((b) => Number(b.block.header.height))).to.deep.equal([height, height - 1]);
      expect(raw.result.total_count).to.equal("2");
      const all = await client.blockSearchAll({ query: "block.height > 0", per_page: 100 });
      expect(all.totalCount).to.equal(height);
    } finally {
      client.disconnect();
    }
  });

  it("refuses subscriptions with the engine's errors", async () => {
    const client = await rpcSocket(wsUrl());
    const error = async (method: string, params: Record<string, unknown>) => {
      const answer = await client.call(method, params);
      return { code: answer.error?.code, data: answer.error?.data };
    };
    const internal = (data: string) => ({ code: -32603, data });
    expect(await error("unsubscribe_all", {})).to.deep.equal(internal("subscription not found"));
    expect(await error("subscribe", { query: "tm.event=Tx" })).to.deep.equal(
      internal('failed to parse query: \nparse error near equal (line 1 symbol 10 - line 1 symbol 11):\n"="\n'),
    );
    expect(await error("subscribe", { query: `tm.event='${"x".repeat(520)}'` })).to.deep.equal(internal("maximum query length exceeded"));
    expect(await error("unsubscribe", { query: "tm.event='Tx'" })).to.deep.equal(internal("subscription not found"));
    for (const n of [1, 2, 3, 4, 5]) expect((await client.call("subscribe", { query: `tx.height > ${n}` })).result).to.deep.equal({});
    expect(await error("subscribe", { query: "tx.height > 1" })).to.deep.equal(internal("max_subscriptions_per_client 5 reached"));
    expect((await client.call("unsubscribe", { query: "tx.height > 1" })).result).to.deep.equal({});
    expect(await error("subscribe", { query: "tx.height > 2" })).to.deep.equal(internal("already subscribed"));
    expect((await client.call("unsubscribe_all")).result).to.deep.equal({});
    client.socket.close();
  });

  it("the REST searches refuse a query the engine would refuse, in its words, before asking the node", async () => {
    const gateway = await fetch(`${node.restUrl}/core/tx/v1beta1/txs?events=${encodeURIComponent("transfer.recipient=a'b")}`);
    expect(gateway.status).to.equal(400);
    expect(await gateway.json()).to.deep.equal({
      code: 3,
      message: "\nparse error near PegText (line 1 symbol 21 - line 1 symbol 24):\n\"'a'\"\n",
      details: [],
    });
    const legacy = await fetch(`${node.restUrl}/txs?transfer.recipient=${encodeURIComponent("a'b")}`);
    expect(legacy.status).to.equal(400);
    expect(((await legacy.json()) as { error: string }).error).to.equal("\nparse error near PegText (line 1 symbol 21 - line 1 symbol 24):\n\"'a'\"\n");
    const long = await fetch(`${node.restUrl}/txs?transfer.recipient=${"x".repeat(600)}`);
    expect(long.status).to.equal(400);
    expect(((await long.json()) as { error: string }).error).to.equal("maximum query length exceeded");
  });

  it("closes a connection whose request message is over 1,000,000 bytes (1009), as the HTTP body limit refuses it", async () => {
    const client = await rpcSocket(wsUrl());
    const closed = new Promise<number>((resolve) => client.socket.once("close", (code) => resolve(code)));
    client.socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscribe", params: { query: "x".repeat(1_000_001) } }));
    expect(await closed).to.equal(1009);
  });

  it("holds max_subscription_clients from config.toml (2 here): a third client with subscriptions waits for a place", async () => {
    const clients = await Promise.all([rpcSocket(wsUrl()), rpcSocket(wsUrl()), rpcSocket(wsUrl())]);
    const [first, second, third] = clients;
    expect((await first.call("subscribe", { query: "tm.event='NewBlock'" })).result).to.deep.equal({});
    expect((await second.call("subscribe", { query: "tm.event='NewBlock'" })).result).to.deep.equal({});
    expect((await third.call("subscribe", { query: "tm.event='NewBlock'" })).error).to.include({ code: -32603, data: "max_subscription_clients 2 reached" });
    // a client without subscriptions still calls other methods
    expect((await third.call("health")).result).to.deep.equal({});
    expect((await second.call("unsubscribe_all")).result).to.deep.equal({});
    expect((await third.call("subscribe", { query: "tm.event='NewBlock'" })).result).to.deep.equal({});
    for (const client of clients) client.socket.close();
  });
});
