import { expect } from "chai";
import path from "node:path";
// Tendermint34Client left @cosmjs/tendermint-rpc in 0.35; the 0.34 release is installed under an alias.
import { Tendermint34Client } from "tendermint-rpc-tm34";
import { QueryClient, setupBankExtension, setupAuthExtension } from "@cosmjs/stargate";
import { connectComet } from "@cosmjs/tendermint-rpc";
import { QueryAllBalancesRequest, QueryAllBalancesResponse } from "cosmjs-types/cosmos/bank/v1beta1/query";
import { QueryAccountRequest, QueryAccountResponse } from "cosmjs-types/cosmos/auth/v1beta1/query";
import { BaseAccount } from "cosmjs-types/cosmos/auth/v1beta1/auth";
import { toHex } from "@cosmjs/encoding";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { pollUntil } from "../helpers/poll.js";

/** Third-party clients against the node's JSON-RPC: @cosmjs/tendermint-rpc's strict parsers and @cosmjs/stargate's ABCI queries. */
describe("interop: cosmjs clients against the node's RPC", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let client: Tendermint34Client;

  before(async () => {
    initDevHome(home, { accounts: 4, mnemonic: TEST_MNEMONIC });
    node = await startNode(home);
    client = await Tendermint34Client.connect(node.rpcUrl);
  });

  after(async () => {
    client?.disconnect();
    await node?.proc.stop();
  });

  it("reads status, blocks, block results and validators", async () => {
    const status = await client.status();
    expect(status.nodeInfo.network).to.equal("devnet-1");
    expect(status.syncInfo.latestBlockHeight).to.be.at.least(1);
    const block = await client.block(1);
    expect(block.block.header.height).to.equal(1);
    expect(block.block.header.chainId).to.equal("devnet-1");
    const results = await client.blockResults(1);
    expect(results.height).to.equal(1);
    const validators = await client.validators({ height: 1 });
    expect(validators.total).to.be.at.least(1);
    expect(validators.validators[0]!.pubkey!.algorithm).to.equal("ed25519");
  });

  it("broadcasts a signed transaction with broadcastTxSync and finds it by hash and by tx_search", async () => {
    const [a, b] = await Promise.all([testSigner(TEST_MNEMONIC, 0), testSigner(TEST_MNEMONIC, 1)]);
    const bytes = await directTx(a, { messages: [send(a.address, b.address, "10")], sequence: 0, accountNumber: 0 });
    const sync = await client.broadcastTxSync({ tx: bytes });
    expect(sync.code).to.equal(0);
    const search = await pollUntil(
      () => client.txSearch({ query: `tx.hash='${toHex(sync.hash).toUpperCase()}'` }),
      (s) => s.txs.length > 0,
    );
    const found = search.txs[0];
    expect(found!.result.code).to.equal(0);
    const tx = await client.tx({ hash: sync.hash });
    expect(tx.height).to.equal(found!.height);
    expect(tx.result.events.map((e) => e.type)).to.include("transfer");
    const bySender = await client.txSearch({ query: `message.sender='${a.address}'` });
    expect(bySender.totalCount).to.equal(1);
    const byHeight = await client.txSearch({ query: `tx.height=${found!.height}` });
    expect(byHeight.txs.map((t) => toHex(t.hash))).to.include(toHex(sync.hash));
  });

  it("answers the raw ABCI queries of @cosmjs/stargate on the project's paths", async () => {
    const comet = await connectComet(node.rpcUrl);
    try {
      const queryClient = QueryClient.withExtensions(comet, setupAuthExtension, setupBankExtension);
      const a = await testSigner(TEST_MNEMONIC, 2);
      const balances = await queryClient.queryAbci(
        "/core.bank.v1beta1.Query/AllBalances",
        QueryAllBalancesRequest.encode(QueryAllBalancesRequest.fromPartial({ address: a.address })).finish(),
      );
      expect(QueryAllBalancesResponse.decode(balances.value).balances).to.deep.equal([{ denom: "uhub", amount: "1000000000000" }]);
      const account = await queryClient.queryAbci("/core.auth.v1beta1.Query/Account", QueryAccountRequest.encode({ address: a.address }).finish());
      const any = QueryAccountResponse.decode(account.value).account!;
      expect(any.typeUrl).to.equal("/core.auth.v1beta1.BaseAccount");
      expect(BaseAccount.decode(any.value).address).to.equal(a.address);
    } finally {
      comet.disconnect();
    }
  });
});
