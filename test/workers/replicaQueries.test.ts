import { expect } from "chai";
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { AbciQueryResponse } from "../../src/client/chainClient.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { LatestReplica, ReplicaView } from "../../src/node/store/latestReplica.js";
import { ReplicaMoved } from "../../src/node/store/replicaReads.js";
import { ReplicaQueries } from "../../src/workers/replicaQueries.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";
import { openDevNode, TEST_MNEMONIC } from "../helpers/devNode.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, send, testSigner } from "../helpers/txSigner.js";

/**
 * A `start` worker's own answers (api.workers > 1): the node's query handlers
 * over the LMDB copy of the latest state (src/node/store/latestReplica.ts),
 * compared with the node's answers over LevelDB, at commits and a revert.
 */
describe("a REST worker's queries over the node's LMDB copy of the latest state", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let addresses: string[];
  let replica: LatestReplica;
  let local: ReplicaQueries;
  let dir: string;
  let sequence = 0;

  before(async () => {
    ({ node, addresses } = await openDevNode());
    dir = path.join(tempDir("chain-rest-replica-"), "workers-state.lmdb");
    replica = await LatestReplica.create(dir, node.store);
    local = ReplicaQueries.open({ dir, chainId: node.chain.chainId, servedPaths: node.servedQueryPaths() }, "hub", node.codec);
  });
  after(async () => {
    await replica.close();
    await node.close();
  });

  const encode = (type: string, fields: object) => node.codec.type(type).encode(fields).finish();
  const balanceQuery = (address: string) =>
    ["/core.bank.v1beta1.Query/Balance", encode("core.bank.v1beta1.QueryBalanceRequest", { address, denom: "uhub" })] as const;
  const amountOf = (answer: AbciQueryResponse) => {
    const Response = node.codec.type("core.bank.v1beta1.QueryBalanceResponse");
    return BigInt((Response.toObject(Response.decode(answer.value)) as { balance: { amount: string } }).balance.amount);
  };

  async function commitSend(amount: string): Promise<number> {
    const signer = await testSigner(TEST_MNEMONIC, 0);
    const tx = await directTx(signer, { messages: [send(addresses[0]!, addresses[1]!, amount)], sequence: sequence++, accountNumber: 0 });
    const { hash, outcome } = await node.checkTx(tx);
    expect(outcome.code, outcome.log).to.equal(0);
    return (await node.waitForInclusion(hash)).height;
  }

  it("gives the node's answers, bytes and errors alike, at the latest height", async () => {
    const queries: Array<readonly [string, Uint8Array]> = [
      balanceQuery(addresses[1]!),
      ["/core.bank.v1beta1.Query/AllBalances", encode("core.bank.v1beta1.QueryAllBalancesRequest", { address: addresses[2] })],
      ["/core.bank.v1beta1.Query/TotalSupply", encode("core.bank.v1beta1.QueryTotalSupplyRequest", {})],
      ["/core.auth.v1beta1.Query/Accounts", encode("core.auth.v1beta1.QueryAccountsRequest", { pagination: { limit: 2, countTotal: true } })],
      ["/core.staking.v1beta1.Query/Validators", encode("core.staking.v1beta1.QueryValidatorsRequest", {})],
      ["/core.bank.v1beta1.Query/Params", encode("core.bank.v1beta1.QueryParamsRequest", {})],
      ["/core.bank.v1beta1.Query/Balance", encode("core.bank.v1beta1.QueryBalanceRequest", { address: "hub1nope", denom: "uhub" })],
    ];
    for (const [queryPath, data] of queries) {
      const own = await local.abciQuery(queryPath, data);
      expect(own, queryPath).to.deep.equal(await node.query(queryPath, data));
    }
    expect((await local.abciQuery(...queries.at(-1)!))!.code, "an invalid address is refused").to.not.equal(0);
    const request = { address: addresses[3], denom: "uhub" };
    expect(await local.queryMessage("/core.bank.v1beta1.Query/Balance", request)).to.deep.equal(
      await node.queryMessage("/core.bank.v1beta1.Query/Balance", request),
    );
  });

  it("holds a commit's state before the node tells anyone of its height", async () => {
    const before = amountOf((await local.abciQuery(...balanceQuery(addresses[1]!)))!); // now kept in the worker's reads too
    let seen: Promise<AbciQueryResponse | undefined> | undefined;
    const first = () => {
      seen = local.abciQuery(...balanceQuery(addresses[1]!)); // the copy is read here, synchronously
    };
    node.prependListener("commit", first); // before any other listener: what `start` does before it writes the shared height
    try {
      const height = await commitSend("4321");
      const answer = (await seen)!;
      expect(answer.height).to.equal(height);
      expect(amountOf(answer)).to.equal(before + 4321n);
    } finally {
      node.off("commit", first);
    }
  });

  it("leaves earlier heights and the node's own services to the node", async () => {
    const [queryPath, data] = balanceQuery(addresses[1]!);
    expect(local.abciQuery(queryPath, data, node.height - 1)).to.equal(undefined);
    expect(await local.abciQuery(queryPath, data, node.height)).to.deep.equal(await node.query(queryPath, data, node.height));
    expect(local.abciQuery("/core.tx.v1beta1.Service/Simulate", new Uint8Array())).to.equal(undefined);
    expect(local.abciQuery("/app/version", new Uint8Array())).to.equal(undefined);
  });

  it("sees another process's write at once, even in the event-loop turn of an earlier read", () => {
    const view = ReplicaView.open(dir);
    const first = view.snapshot()!; // lmdb-js would keep this read transaction current until its next timer
    first.done();
    // another process moves the copy's version on while this one's event loop is blocked (no timer
    // can run), as the node writes it: the version and the next sequence, then the stamp
    const next = first.version + 1;
    const script = `import { open } from "lmdb";
      import { ReplicaStamp } from "./src/node/store/replicaStamp.ts";
      const db = open({ path: ${JSON.stringify(dir)}, encoding: "binary", keyEncoding: "binary", mapSize: 64 * 1024 ** 3 });
      const word = (n) => { const bytes = new Uint8Array(8); new DataView(bytes.buffer).setBigUint64(0, BigInt(n)); return bytes; };
      const sequence = Number(new DataView(db.get(Uint8Array.of(0x73)).buffer).getBigUint64(0)) + 1;
      db.transactionSync(() => { db.putSync(Uint8Array.of(0x68), word(${next})); db.putSync(Uint8Array.of(0x73), word(sequence)); });
      ReplicaStamp.create(${JSON.stringify(dir)}).write(sequence);`;
    execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: PACKAGE_ROOT });
    const second = view.snapshot()!;
    second.done();
    expect(second.version).to.equal(next);
    replica.apply(node.height, []); // the node's version back
  });

  it("answers a query asked again from the worker's kept reads, until the next commit", async () => {
    const allBalances = (address: string) =>
      ["/core.bank.v1beta1.Query/AllBalances", encode("core.bank.v1beta1.QueryAllBalancesRequest", { address })] as const;
    const queries: Array<readonly [string, Uint8Array]> = [balanceQuery(addresses[2]!), ...addresses.map(allBalances)];
    for (const query of queries) await local.abciQuery(...query);
    const begun = local.view.transactions;
    for (const query of queries) expect(await local.abciQuery(...query)).to.deep.equal(await node.query(...query));
    expect(local.view.transactions, "no LMDB read transaction").to.equal(begun);
    const before = amountOf(await node.query(...balanceQuery(addresses[2]!)));
    await commitSend("7"); // from addresses[0] to addresses[1]: addresses[2] is not written
    expect(amountOf((await local.abciQuery(...balanceQuery(addresses[2]!)))!)).to.equal(before);
    expect(local.view.transactions, "a commit's state is read anew").to.equal(begun + 1);
    for (const query of queries) expect(await local.abciQuery(...query)).to.deep.equal(await node.query(...query));
  });

  it("leaves to the node a query whose read the worker had not kept when the copy moved on under it", async () => {
    const view = ReplicaView.open(dir);
    try {
      view.snapshot()!.done(); // the reads of this write are kept from now on
      const kept = view.snapshot()!;
      replica.apply(node.height, []); // a write of the copy, while the query runs
      let moved: unknown;
      await kept.get(new TextEncoder().encode("bank/not-read-before")).catch((err: unknown) => (moved = err));
      kept.done();
      expect(moved).to.be.instanceOf(ReplicaMoved);
      const query = balanceQuery(addresses[4]!);
      const state = view.snapshot()!;
      expect(state.version, "the next query reads the copy's new write").to.equal(node.height);
      state.done();
      expect(await local.abciQuery(...query)).to.deep.equal(await node.query(...query));
    } finally {
      await view.close();
    }
  });

  it("follows a revert back to the snapshot's state", async () => {
    const { id, height } = await node.snapshot();
    const before = amountOf((await local.abciQuery(...balanceQuery(addresses[1]!)))!);
    await commitSend("55");
    expect(amountOf((await local.abciQuery(...balanceQuery(addresses[1]!)))!)).to.equal(before + 55n);
    await node.revert(id);
    const answer = (await local.abciQuery(...balanceQuery(addresses[1]!)))!;
    expect(answer.height).to.equal(height);
    expect(amountOf(answer)).to.equal(before);
    sequence--; // the reverted send is forgotten with its sequence
  });
});
