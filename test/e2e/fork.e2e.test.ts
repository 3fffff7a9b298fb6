import { decodeCoin } from "../../src/node/modules/bank/coinValues.js";
import path from "node:path";
import { expect } from "chai";
import type { EncodeObject } from "@cosmjs/proto-signing";
import { http } from "../helpers/http.js";
import { DEVELOPER_MNEMONIC, restGet, rpcCall, startFork, type Json } from "../helpers/forkCalls.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { runCli, type StartedNode } from "../helpers/processes.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { tempDir } from "../helpers/tempDir.js";
import { decodeBech32Address } from "../../src/codec/bech32.js";
import { balancesPrefix } from "../../src/node/modules/bank/keys.js";
import { concatBytes } from "../../src/node/store/keyEncoding.js";
import { utf8 } from "../../src/node/store/moduleStore.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";

const FORK_CHAIN_ID = "fork-devnet";

/**
 * `start --fork`: a second chain-rest node (the fork) reads a running one's (the source's) state
 * at a height through abci_query `/store/<store>/key|subspace`, runs transactions of its own, and
 * never writes the source.
 */
describe("e2e: start --fork, a fork of a running node at a height", function () {
  this.timeout(180_000);
  const source = useStartedDevChain({ accounts: 6, mnemonic: TEST_MNEMONIC });
  let fork: StartedNode;
  const forkHome = path.join(tempDir(), "fork");
  let forkHeight: number;
  let signers: TestSigner[];
  let developer: TestSigner;
  let sourceAfterFork: { height: string; appHash: string };

  const get = restGet;
  const sourceAt = (route: string) => get(source.node().restUrl, route, forkHeight);
  const onFork = (route: string) => get(fork.restUrl, route);
  const balances = async (restUrl: string, address: string, height?: number) =>
    Object.fromEntries(((await get(restUrl, `/core/bank/v1beta1/balances/${address}`, height)).balances as Json[]).map((b) => [b.denom, b.amount as string]));
  const sourceHead = async () => {
    const status = await rpcCall(source.node().rpcUrl, "status");
    return { height: status.sync_info.latest_block_height as string, appHash: status.sync_info.latest_app_hash as string };
  };

  async function broadcast(
    restUrl: string,
    signer: TestSigner,
    accountNumber: number,
    sequence: number,
    messages: EncodeObject[],
    chainId: string,
  ): Promise<Json> {
    const bytes = await directTx(signer, { messages, sequence, accountNumber, chainId, gas: 200_000 });
    const r = await http(`${restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
    });
    expect(r.status, r.text).to.equal(200);
    return r.body.tx_response as Json;
  }

  before(async () => {
    signers = await Promise.all([0, 1, 2, 3].map((i) => testSigner(TEST_MNEMONIC, i)));
    developer = await testSigner(DEVELOPER_MNEMONIC, 0);
    const sourceRest = source.node().restUrl;
    // state of the source's own before the forked height, and a change after it the fork must not see
    const before = await broadcast(sourceRest, signers[1]!, 1, 0, [send(signers[1]!.address, signers[2]!.address, "1000")], "devnet-1");
    expect(before.code, before.raw_log).to.equal(0);
    forkHeight = Number(before.height);
    const after = await broadcast(sourceRest, signers[1]!, 1, 1, [send(signers[1]!.address, signers[2]!.address, "7")], "devnet-1");
    expect(after.code, after.raw_log).to.equal(0);
    await rpcCall(source.node().rpcUrl, "set_auto_blocks", { enabled: false }); // the source's height stays put from here
    fork = await startFork(forkHome, {
      url: source.node().rpcUrl,
      height: forkHeight,
      fund: [`${developer.address}=5000000uhub,100ugold`],
      chainId: FORK_CHAIN_ID,
    });
    sourceAfterFork = await sourceHead();
  });
  after(async () => {
    await fork?.proc.stop();
  });

  it("starts at the forked height with the chain id asked for", async () => {
    const status = await rpcCall(fork.rpcUrl, "status");
    expect(Number(status.sync_info.latest_block_height)).to.equal(forkHeight);
    expect(status.node_info.network).to.equal(FORK_CHAIN_ID);
  });

  it("answers every query of untouched state as the source does at the forked height, not at its latest", async () => {
    const routes = [
      `/core/auth/v1beta1/accounts/${signers[1]!.address}`,
      `/core/bank/v1beta1/balances/${signers[0]!.address}`,
      `/core/bank/v1beta1/balances/${signers[1]!.address}`,
      `/core/bank/v1beta1/balances/${signers[2]!.address}`,
      "/core/staking/v1beta1/validators",
      "/core/staking/v1beta1/params",
      "/core/slashing/v1beta1/signing_infos",
      "/core/distribution/v1beta1/community_pool",
      "/core/gov/v1beta1/params/voting",
      "/core/auth/v1beta1/params",
    ];
    for (const route of routes) expect(await onFork(route), route).to.deep.equal(await sourceAt(route));
    // the source moved on after the forked height (account 2 got 7 more): the fork did not
    const latest = await balances(source.node().restUrl, signers[2]!.address);
    const forked = await balances(fork.restUrl, signers[2]!.address);
    expect(BigInt(latest.uhub) - BigInt(forked.uhub)).to.equal(7n);
  });

  it("funds the developer's account locally: minted coins, a new account, the supply raised by them", async () => {
    expect(await balances(fork.restUrl, developer.address)).to.deep.equal({ ugold: "100", uhub: "5000000" });
    const supply = async (restUrl: string, height?: number) =>
      Object.fromEntries(((await get(restUrl, "/core/bank/v1beta1/supply", height)).supply as Json[]).map((c) => [c.denom, BigInt(c.amount)]));
    const [forked, original] = [await supply(fork.restUrl), await supply(source.node().restUrl, forkHeight)];
    expect(forked.uhub! - original.uhub!).to.equal(5_000_000n);
    expect(forked.ugold! - original.ugold!).to.equal(100n);
    const account = (await onFork(`/core/auth/v1beta1/accounts/${developer.address}`)).account as Json;
    expect(account.address).to.equal(developer.address);
  });

  it("runs transactions on the fork (the developer's key, and the remote's accounts); the source is never written", async () => {
    const gold = (await balances(source.node().restUrl, signers[0]!.address, forkHeight)).ugold!;
    // a remote account sends all its ugold: its balance key is deleted on the fork, and must not show through from the source
    const all = await broadcast(fork.restUrl, signers[0]!, 0, 0, [send(signers[0]!.address, developer.address, gold, "ugold")], FORK_CHAIN_ID);
    expect(all.code, all.raw_log).to.equal(0);
    const number = Number(((await onFork(`/core/auth/v1beta1/accounts/${developer.address}`)).account as Json).account_number);
    const mine = await broadcast(fork.restUrl, developer, number, 0, [send(developer.address, signers[3]!.address, "1000")], FORK_CHAIN_ID);
    expect(mine.code, mine.raw_log).to.equal(0);
    // a tx signed for the source's chain id is refused by the fork
    const foreign = await broadcast(fork.restUrl, signers[1]!, 1, 1, [send(signers[1]!.address, signers[2]!.address, "1")], "devnet-1");
    expect(foreign.code).to.not.equal(0);

    expect((await balances(fork.restUrl, signers[0]!.address)).ugold).to.equal(undefined);
    expect((await balances(source.node().restUrl, signers[0]!.address, forkHeight)).ugold).to.equal(gold);
    expect((await balances(fork.restUrl, developer.address)).ugold).to.equal(String(100n + BigInt(gold)));
    const three = [await balances(fork.restUrl, signers[3]!.address), await balances(source.node().restUrl, signers[3]!.address, forkHeight)];
    expect(BigInt(three[0]!.uhub) - BigInt(three[1]!.uhub)).to.equal(1000n);
    // untouched state after the fork's own blocks: still the source's at the forked height
    const untouched = `/core/bank/v1beta1/balances/${signers[2]!.address}`;
    expect(await onFork(untouched)).to.deep.equal(await sourceAt(untouched));
    expect(Number((await rpcCall(fork.rpcUrl, "status")).sync_info.latest_block_height)).to.be.greaterThan(forkHeight);
    expect(await sourceHead()).to.deep.equal(sourceAfterFork);
  });

  it("answers the raw store queries from the fork's state: the source's pairs at the height, with the fork's changes", async () => {
    const query = async (url: string, storePath: string, data: Uint8Array, height?: number) =>
      (await rpcCall(url, "abci_query", { path: storePath, data: Buffer.from(data).toString("hex"), ...(height ? { height: String(height) } : {}) }))
        .response as Json;
    const balancesOf = (address: string) => balancesPrefix(decodeBech32Address(address, "hub", "address"));
    const untouched = balancesOf(signers[2]!.address);
    const [forked, original] = [
      await query(fork.rpcUrl, "/store/bank/subspace", untouched),
      await query(source.node().rpcUrl, "/store/bank/subspace", untouched, forkHeight),
    ];
    expect(forked.code ?? 0, forked.log).to.equal(0);
    expect(forked.value).to.be.a("string").and.equal(original.value);
    const changed = concatBytes(balancesOf(signers[3]!.address), utf8("uhub"));
    const [mine, theirs] = [await query(fork.rpcUrl, "/store/bank/key", changed), await query(source.node().rpcUrl, "/store/bank/key", changed, forkHeight)];
    const amount = (value: string) => decodeCoin(Buffer.from(value, "base64")).amount; // v0.41: a Coin proto
    expect(amount(mine.value) - amount(theirs.value)).to.equal(1000n);
  });

  it("a remote that stops answering: reads not kept fail with a clear error after bounded tries, kept ones still answer", async () => {
    await source.node().proc.stop();
    const fresh = (await testSigner(DEVELOPER_MNEMONIC, 1)).address; // no read of it was kept
    const r = await http(`${fork.restUrl}/core/bank/v1beta1/balances/${fresh}`, { headers: { accept: "application/json" } });
    expect(r.status, r.text).to.be.within(500, 599);
    expect(r.text).to.include(`did not answer /store/bank/subspace at height ${forkHeight} after 3 tries`);
    expect(await balances(fork.restUrl, developer.address)).to.have.property("uhub");
  });

  it("refuses a second --fork of another remote into the same home, plainly", async () => {
    await fork.proc.stop();
    const again = runCli([
      "start",
      "--home",
      forkHome,
      "--api.address",
      "tcp://127.0.0.1:0",
      "--rpc.laddr",
      "tcp://127.0.0.1:0",
      "--fork",
      "http://127.0.0.1:9",
    ]);
    const code = await again.exited;
    expect(code).to.equal(1);
    expect(again.output()).to.include(`is a fork of ${source.node().rpcUrl} at height ${forkHeight}`);
  });
});
