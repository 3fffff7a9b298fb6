import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { MsgDelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { http } from "../helpers/http.js";
import { DEVELOPER_MNEMONIC, restGet, rpcCall, startFork, type Json } from "../helpers/forkCalls.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { runCli, type StartedNode } from "../helpers/processes.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { tempDir } from "../helpers/tempDir.js";
import { directTx, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { bech32Prefixes } from "../../src/codec/addresses.js";
import { decodeBech32Address, encodeBech32Address } from "../../src/codec/bech32.js";

const FORK_CHAIN_ID = "fork-own-validator";

/**
 * `start --fork ... --fork-validator <operator>`: the fork's blocks are proposed and signed by
 * the fork home's own consensus key, bonded in the fork's first version; the remote's validators
 * leave the set (unbonding, not jailed) and the rest of the state stays the remote's.
 */
describe("e2e: start --fork --fork-validator, the dev node's own key signs the fork's blocks", function () {
  this.timeout(180_000);
  const source = useStartedDevChain({ accounts: 4, mnemonic: TEST_MNEMONIC });
  const forkHome = path.join(tempDir(), "fork");
  let fork: StartedNode;
  let forkHeight: number;
  let developer: TestSigner;
  let own: { address: string; publicKey: string; operator: string };

  const get = restGet;
  const onFork = (route: string) => get(fork.restUrl, route);
  const sourceAt = (route: string) => get(source.node().restUrl, route, forkHeight);

  before(async () => {
    developer = await testSigner(DEVELOPER_MNEMONIC, 0);
    forkHeight = Number((await rpcCall(source.node().rpcUrl, "status")).sync_info.latest_block_height);
    fork = await startFork(forkHome, {
      url: source.node().rpcUrl,
      height: forkHeight,
      fund: [`${developer.address}=5000000uhub`],
      chainId: FORK_CHAIN_ID,
      extra: ["--fork-validator", developer.address],
    });
    const key = JSON.parse(fs.readFileSync(path.join(forkHome, "config", "priv_validator_key.json"), "utf8")) as {
      address: string;
      pub_key: { value: string };
    };
    const operator = encodeBech32Address(bech32Prefixes("hub").validatorOperator, decodeBech32Address(developer.address, "hub", "address"));
    own = { address: key.address, publicKey: key.pub_key.value, operator };
  });
  after(async () => {
    await fork?.proc.stop();
  });

  it("lists the fork home's consensus key as the only validator, and its blocks are proposed and signed by it", async () => {
    await rpcCall(fork.rpcUrl, "advance_blocks", { num_blocks: "2" });
    const validators = await rpcCall(fork.rpcUrl, "validators");
    expect(validators.validators.map((v: Json) => [v.address, v.pub_key.value])).to.deep.equal([[own.address, own.publicKey]]);
    const gateway = (await onFork("/core/base/consensus/v1beta1/validatorsets/latest")).validators as Json[];
    expect(gateway.map((v) => [v.address, v.pub_key.key])).to.deep.equal([
      [encodeBech32Address(bech32Prefixes("hub").consensus, Buffer.from(own.address, "hex")), own.publicKey],
    ]);
    const latest = await rpcCall(fork.rpcUrl, "block");
    expect(Number(latest.block.header.height)).to.be.at.least(forkHeight + 2);
    expect(latest.block.header.proposer_address).to.equal(own.address);
    const signed = (latest.block.last_commit.signatures as Json[]).filter((s) => s.block_id_flag === 2).map((s) => s.validator_address);
    expect(signed).to.deep.equal([own.address]);
    // the source's own validator did not sign the fork's blocks, so it is not in the set any more
    const sourceKeys = ((await rpcCall(source.node().rpcUrl, "validators", { height: String(forkHeight) })).validators as Json[]).map((v) => v.address);
    expect(sourceKeys).to.not.include(own.address);
  });

  it("shows the own validator bonded in staking, the remote ones unbonding and not jailed", async () => {
    const mine = (await onFork(`/core/staking/v1beta1/validators/${own.operator}`)).validator as Json;
    expect(mine.status).to.equal("BOND_STATUS_BONDED");
    expect(mine.jailed).to.equal(false);
    expect(mine.consensus_pubkey.key).to.equal(own.publicKey);
    const remoteBonded = (await sourceAt("/core/staking/v1beta1/validators?status=BOND_STATUS_BONDED")).validators as Json[];
    expect(remoteBonded.length).to.be.greaterThan(0);
    for (const remote of remoteBonded) {
      const now = (await onFork(`/core/staking/v1beta1/validators/${remote.operator_address}`)).validator as Json;
      expect([now.status, now.jailed, now.tokens]).to.deep.equal(["BOND_STATUS_UNBONDING", false, remote.tokens]);
      expect(BigInt(mine.tokens) > BigInt(remote.tokens), `${mine.tokens} > ${remote.tokens}`).to.equal(true);
    }
    expect((await onFork("/core/staking/v1beta1/params")).params.max_validators).to.equal(1);
  });

  it("takes a delegation to the own validator, signed with cosmjs", async () => {
    const before = BigInt(((await onFork(`/core/staking/v1beta1/validators/${own.operator}`)).validator as Json).tokens);
    const account = (await onFork(`/core/auth/v1beta1/accounts/${developer.address}`)).account as Json;
    const amount = { denom: "uhub", amount: "1000000" };
    const messages = [
      {
        typeUrl: "/core.staking.v1beta1.MsgDelegate",
        value: MsgDelegate.fromPartial({ delegatorAddress: developer.address, validatorAddress: own.operator, amount }),
      },
    ];
    const bytes = await directTx(developer, {
      messages,
      sequence: Number(account.sequence),
      accountNumber: Number(account.account_number),
      chainId: FORK_CHAIN_ID,
      gas: 300_000,
    });
    const r = await http(`${fork.restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.tx_response.code, r.body.tx_response.raw_log).to.equal(0);
    const after = BigInt(((await onFork(`/core/staking/v1beta1/validators/${own.operator}`)).validator as Json).tokens);
    expect(after - before).to.equal(1_000_000n);
    const delegation = (await onFork(`/core/staking/v1beta1/validators/${own.operator}/delegations/${developer.address}`)).delegation_response as Json;
    expect(delegation.delegation.delegator_address).to.equal(developer.address);
    // more blocks, still the own validator's, and it is not jailed for missing them
    await rpcCall(fork.rpcUrl, "advance_blocks", { num_blocks: "3" });
    expect((await rpcCall(fork.rpcUrl, "block")).block.header.proposer_address).to.equal(own.address);
    expect(((await onFork(`/core/staking/v1beta1/validators/${own.operator}`)).validator as Json).jailed).to.equal(false);
  });

  it("refuses a --fork-validator that is not an account address, plainly", async () => {
    const refused = runCli([
      "start",
      "--home",
      path.join(tempDir(), "refused"),
      "--api.address",
      "tcp://127.0.0.1:0",
      "--rpc.laddr",
      "tcp://127.0.0.1:0",
      "--fork",
      source.node().rpcUrl,
      "--fork-validator",
      "hubvaloper1notanaccount",
    ]);
    expect(await refused.exited).to.equal(1);
    expect(refused.output()).to.include('--fork-validator "hubvaloper1notanaccount": expected an account address (hub1...)');
  });

  it("leaves the untouched state as the source has it at the forked height", async () => {
    const [, , someone] = await Promise.all([0, 1, 2].map((i) => testSigner(TEST_MNEMONIC, i)));
    const routes = [
      `/core/bank/v1beta1/balances/${someone!.address}`,
      `/core/auth/v1beta1/accounts/${someone!.address}`,
      "/core/gov/v1beta1/params/voting",
      "/core/auth/v1beta1/params",
    ];
    for (const route of routes) expect(await onFork(route), route).to.deep.equal(await sourceAt(route));
  });
});
