import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import type { EncodeObject } from "@cosmjs/proto-signing";
import { MsgBeginRedelegate, MsgDelegate, MsgUndelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { MsgWithdrawDelegatorReward } from "cosmjs-types/cosmos/distribution/v1beta1/tx";
import { MsgDeposit, MsgSubmitProposal, MsgVote } from "cosmjs-types/cosmos/gov/v1beta1/tx";
import { TextProposal, VoteOption } from "cosmjs-types/cosmos/gov/v1beta1/gov";
import { MsgUnjail } from "cosmjs-types/cosmos/slashing/v1beta1/tx";
import { bech32Prefixes } from "../../src/codec/addresses.js";
import { decodeBech32Address, encodeBech32Address } from "../../src/codec/bech32.js";
import { parseDec } from "../../src/codec/decimal.js";
import { readDevAccounts } from "../../src/commands/home.js";
import { http } from "../helpers/http.js";
import { startNode, type StartedNode } from "../helpers/processes.js";
import { initDevHome } from "../helpers/devHome.js";
import { tempDir } from "../helpers/tempDir.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { directTx, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { rfc3339Seconds } from "../helpers/timeText.js";
import { pollUntil } from "../helpers/poll.js";

const FEE = 2000n;
const ONE = 10n ** 18n;
type Json = Record<string, any>;

/**
 * Staking, distribution and gov through the gateway, with cosmjs-signed
 * transactions broadcast in BLOCK mode on a node that makes a block every
 * 300 ms, with a 6-second unbonding time and voting period.
 */
describe("e2e: staking, distribution and gov flow", function () {
  this.timeout(60_000);
  const home = path.join(tempDir(), "home");
  let node: StartedNode;
  let signers: TestSigner[];
  let addresses: string[];
  let valA: string;
  let valB: string;
  const sequences = new Map<number, number>();

  before(async () => {
    initDevHome(home, { accounts: 6, mnemonic: TEST_MNEMONIC });
    const genesisFile = path.join(home, "config", "genesis.json");
    const genesis = JSON.parse(fs.readFileSync(genesisFile, "utf8"));
    genesis.app_state.staking.params.unbonding_time = "6s";
    genesis.app_state.gov.voting_params.voting_period = "6s";
    fs.writeFileSync(genesisFile, JSON.stringify(genesis, null, 2));
    const configToml = path.join(home, "config", "config.toml");
    fs.writeFileSync(
      configToml,
      fs
        .readFileSync(configToml, "utf8")
        .replace("create_empty_blocks = false", "create_empty_blocks = true")
        .replace('create_empty_blocks_interval = "1s"', 'create_empty_blocks_interval = "300ms"'),
    );
    addresses = readDevAccounts(home)!.accounts.map((a) => a.address);
    signers = await Promise.all(addresses.map((_, i) => testSigner(TEST_MNEMONIC, i)));
    const operator = (i: number) => encodeBech32Address(bech32Prefixes("hub").validatorOperator, decodeBech32Address(addresses[i]!, "hub", "address"));
    valA = operator(0);
    valB = operator(2);
    node = await startNode(home);
  });

  after(async () => {
    await node?.proc.stop();
  });

  const get = async (route: string, height?: number) => {
    const r = await http(`${node.restUrl}${route}`, { headers: height ? { "x-cosmos-block-height": String(height) } : {} });
    return r;
  };
  const body = async (route: string, height?: number): Promise<Json> => {
    const r = await get(route, height);
    expect(r.status, `${route}: ${r.text}`).to.equal(200);
    return r.body as Json;
  };
  const balance = async (address: string) => BigInt((await body(`/core/bank/v1beta1/balances/${address}/uhub`)).balance.amount);

  /** Signs with cosmjs (SIGN_MODE_DIRECT) and broadcasts in BLOCK mode; returns the tx_response. */
  async function broadcast(index: number, messages: EncodeObject[]): Promise<Json> {
    const sequence = sequences.get(index) ?? 0;
    const bytes = await directTx(signers[index]!, { messages, sequence, accountNumber: index, gas: 400_000 });
    const r = await http(`${node.restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
    });
    expect(r.status, r.text).to.equal(200);
    const response = r.body.tx_response as Json;
    if (response.code === 0 || response.height !== "0") sequences.set(index, sequence + 1);
    return response;
  }
  const eventsOf = (response: Json, type: string): Array<Record<string, string>> =>
    (response.logs?.[0]?.events ?? [])
      .filter((e: Json) => e.type === type)
      .map((e: Json) => Object.fromEntries(e.attributes.map((a: Json) => [a.key, a.value])));

  const delegate = (index: number, validator: string, amount: bigint) => ({
    typeUrl: "/core.staking.v1beta1.MsgDelegate",
    value: MsgDelegate.fromPartial({ delegatorAddress: addresses[index]!, validatorAddress: validator, amount: { denom: "uhub", amount: amount.toString() } }),
  });

  it("delegates: the delegation and the bonded pool change through the gateway", async () => {
    const pool = (await body("/core/staking/v1beta1/pool")).pool;
    const response = await broadcast(4, [delegate(4, valA, 5_000_000n)]);
    expect(response.code, response.raw_log).to.equal(0);
    expect(eventsOf(response, "delegate")[0]).to.include({ validator: valA, amount: "5000000" });
    const delegation = (await body(`/core/staking/v1beta1/validators/${valA}/delegations/${addresses[4]}`)).delegation_response;
    expect(delegation.delegation.validator_address).to.equal(valA);
    // the tokens the new shares are worth, truncated: the validator's exchange rate is not one since its slash
    expect(delegation.balance.denom).to.equal("uhub");
    expect(delegation.balance.amount).to.match(/^(4999999|5000000)$/);
    expect(BigInt((await body("/core/staking/v1beta1/pool")).pool.bonded_tokens)).to.equal(BigInt(pool.bonded_tokens) + 5_000_000n);
    expect(
      (await body(`/core/staking/v1beta1/delegations/${addresses[4]}`)).delegation_responses.map((d: Json) => d.delegation.validator_address),
    ).to.deep.equal([valA]);
  });

  it("lets rewards accrue over blocks and withdraws them: the balance grows by the reward, less the fee", async () => {
    const rewards = async (height?: number) =>
      parseDec((await body(`/core/distribution/v1beta1/delegators/${addresses[4]}/rewards/${valA}`, height)).rewards[0]?.amount ?? "0");
    await pollUntil(
      () => rewards(),
      (r) => r > 0n,
    ); // rewards accrue block by block
    const before = await balance(addresses[4]!);
    const response = await broadcast(4, [
      {
        typeUrl: "/core.distribution.v1beta1.MsgWithdrawDelegatorReward",
        value: MsgWithdrawDelegatorReward.fromPartial({ delegatorAddress: addresses[4]!, validatorAddress: valA }),
      },
    ]);
    expect(response.code, response.raw_log).to.equal(0);
    const withdrawn = BigInt(eventsOf(response, "withdraw_rewards")[0]!.amount!.replace("uhub", ""));
    expect(await balance(addresses[4]!)).to.equal(before + withdrawn - FEE);
    // what the rewards route showed at the height before, plus what the withdrawing block itself allocated (from its begin-block events)
    const height = Number(response.height);
    const shown = await rewards(height - 1);
    const results = await http(`${node.rpcUrl}/block_results?height=${height}`);
    const allocated = ((results.body.result.begin_block_events ?? []) as Json[])
      .filter((e) => e.type === "rewards")
      .map((e) => Object.fromEntries(e.attributes.map((a: Json) => [Buffer.from(a.key, "base64").toString(), Buffer.from(a.value, "base64").toString()])))
      .filter((a) => a.validator === valA)
      .reduce((sum, a) => sum + parseDec(String(a.amount).replace("uhub", "")), 0n);
    expect(withdrawn >= shown / ONE).to.equal(true);
    expect(withdrawn <= (shown + allocated) / ONE).to.equal(true);
  });

  let unbondingBalance = 0n;
  let afterUndelegate = 0n;

  it("undelegates: an unbonding delegation appears with its completion time", async () => {
    const response = await broadcast(4, [
      {
        typeUrl: "/core.staking.v1beta1.MsgUndelegate",
        value: MsgUndelegate.fromPartial({ delegatorAddress: addresses[4]!, validatorAddress: valA, amount: { denom: "uhub", amount: "2000000" } }),
      },
    ]);
    expect(response.code, response.raw_log).to.equal(0);
    afterUndelegate = await balance(addresses[4]!);
    const ubd = (await body(`/core/staking/v1beta1/validators/${valA}/delegations/${addresses[4]}/unbonding_delegation`)).unbond;
    expect(ubd.entries).to.have.length(1);
    unbondingBalance = BigInt(ubd.entries[0].balance);
    expect(unbondingBalance > 1_999_000n && unbondingBalance <= 2_000_000n).to.equal(true);
    const completion = Date.parse(ubd.entries[0].completion_time);
    const blockTime = Date.parse((await body(`/core/base/consensus/v1beta1/blocks/${response.height}`)).block.header.time);
    expect(completion - blockTime).to.equal(6_000);
    expect(eventsOf(response, "unbond")[0]!.completion_time).to.equal(rfc3339Seconds(completion));
  });

  it("redelegates from validator A to validator B", async () => {
    expect((await broadcast(5, [delegate(5, valA, 3_000_000n)])).code).to.equal(0);
    const response = await broadcast(5, [
      {
        typeUrl: "/core.staking.v1beta1.MsgBeginRedelegate",
        value: MsgBeginRedelegate.fromPartial({
          delegatorAddress: addresses[5]!,
          validatorSrcAddress: valA,
          validatorDstAddress: valB,
          amount: { denom: "uhub", amount: "1000000" },
        }),
      },
    ]);
    expect(response.code, response.raw_log).to.equal(0);
    expect(eventsOf(response, "redelegate")[0]).to.include({ source_validator: valA, destination_validator: valB, amount: "1000000" });
    const redelegations = (await body(`/core/staking/v1beta1/delegators/${addresses[5]}/redelegations`)).redelegation_responses;
    expect(redelegations).to.have.length(1);
    expect(redelegations[0].redelegation).to.include({ validator_src_address: valA, validator_dst_address: valB });
    expect((await body(`/core/staking/v1beta1/validators/${valB}/delegations/${addresses[5]}`)).delegation_response.balance.amount).to.match(
      /^(999999|1000000)$/,
    );
  });

  let proposalId = "";

  it("submits a text proposal with its deposit and votes on it", async () => {
    const content = {
      typeUrl: "/core.gov.v1beta1.TextProposal",
      value: TextProposal.encode(TextProposal.fromPartial({ title: "Flow", description: "A proposal of the e2e flow." })).finish(),
    };
    const submitted = await broadcast(3, [
      {
        typeUrl: "/core.gov.v1beta1.MsgSubmitProposal",
        value: MsgSubmitProposal.fromPartial({ content, initialDeposit: [{ denom: "uhub", amount: "10000000" }], proposer: addresses[3]! }),
      },
    ]);
    expect(submitted.code, submitted.raw_log).to.equal(0);
    proposalId = eventsOf(submitted, "submit_proposal")[0]!.proposal_id!;
    expect(eventsOf(submitted, "submit_proposal")[0]).to.include({ proposal_type: "Text", voting_period_start: proposalId });
    expect((await body(`/core/gov/v1beta1/proposals/${proposalId}`)).proposal.status).to.equal("PROPOSAL_STATUS_VOTING_PERIOD");
    const voted = await broadcast(0, [
      {
        typeUrl: "/core.gov.v1beta1.MsgVote",
        value: MsgVote.fromPartial({ proposalId: BigInt(proposalId), voter: addresses[0]!, option: VoteOption.VOTE_OPTION_YES }),
      },
    ]);
    expect(voted.code, voted.raw_log).to.equal(0);
    expect((await body(`/core/gov/v1beta1/proposals/${proposalId}/votes/${addresses[0]}`)).vote).to.deep.equal({
      proposal_id: proposalId,
      voter: addresses[0]!,
      option: "VOTE_OPTION_YES",
    });
    const deposited = await broadcast(1, [
      {
        typeUrl: "/core.gov.v1beta1.MsgDeposit",
        value: MsgDeposit.fromPartial({ proposalId: BigInt(proposalId), depositor: addresses[1]!, amount: [{ denom: "uhub", amount: "1000" }] }),
      },
    ]);
    expect(deposited.code, deposited.raw_log).to.equal(0);
    expect((await body(`/core/gov/v1beta1/proposals/${proposalId}/deposits`)).deposits).to.have.length(2);
  });

  it("refuses to unjail a validator that is not jailed, with the real error", async () => {
    const response = await broadcast(0, [{ typeUrl: "/core.slashing.v1beta1.MsgUnjail", value: MsgUnjail.fromPartial({ validatorAddr: valA }) }]);
    expect([response.code, response.codespace, response.raw_log]).to.deep.equal([
      5,
      "slashing",
      "failed to execute message; message index: 0: validator not jailed; cannot be unjailed",
    ]);
  });

  it("matures the unbonding delegation: the coins return to the delegator", async () => {
    await pollUntil(
      () => get(`/core/staking/v1beta1/validators/${valA}/delegations/${addresses[4]}/unbonding_delegation`),
      (r) => r.status === 404,
    ); // the unbonding completes
    expect(await balance(addresses[4]!)).to.equal(afterUndelegate + unbondingBalance);
    expect((await body(`/core/staking/v1beta1/delegators/${addresses[4]}/unbonding_delegations`)).unbonding_responses).to.deep.equal([]);
  });

  it("ends the voting period: the proposal PASSED with its tally, the deposit refunded", async () => {
    const proposal = (
      await pollUntil(
        () => body(`/core/gov/v1beta1/proposals/${proposalId}`),
        (b) => b.proposal.status !== "PROPOSAL_STATUS_VOTING_PERIOD",
      )
    ).proposal; // the voting period ends
    expect(proposal.status).to.equal("PROPOSAL_STATUS_PASSED");
    const tokensA = BigInt((await body(`/core/staking/v1beta1/validators/${valA}`)).validator.tokens);
    const yes = BigInt(proposal.final_tally_result.yes);
    expect(yes <= tokensA && yes >= tokensA - 1n, `${yes} ~ ${tokensA}`).to.equal(true);
    expect(proposal.final_tally_result).to.include({ abstain: "0", no: "0", no_with_veto: "0" });
    expect((await body(`/core/gov/v1beta1/proposals/${proposalId}/tally`)).tally).to.deep.equal(proposal.final_tally_result);
    expect((await body(`/core/gov/v1beta1/proposals/${proposalId}/deposits`)).deposits).to.deep.equal([]);
    const passed = (await body("/core/gov/v1beta1/proposals?proposal_status=PROPOSAL_STATUS_PASSED")).proposals.map((p: Json) => p.proposal_id);
    expect(passed).to.include(proposalId);
  });

  it("legacy routes rebuild the finished proposal's votes and deposits from its transactions, as the real ones do", async () => {
    expect((await body(`/core/gov/v1beta1/proposals/${proposalId}/votes`)).votes).to.deep.equal([]); // the state no longer has them
    const legacy = async (route: string) => {
      const r = await get(route);
      expect(r.status, `${route}: ${r.text}`).to.equal(200);
      expect(Number(r.body.height)).to.be.greaterThan(0); // the height of the transaction it was found in
      return r.body.result;
    };
    const vote = { proposal_id: proposalId, voter: addresses[0]!, option: 1 };
    expect(await legacy(`/gov/proposals/${proposalId}/votes`)).to.deep.equal([vote]);
    expect(await legacy(`/gov/proposals/${proposalId}/votes?page=2&limit=1`)).to.deep.equal([]);
    expect(await legacy(`/gov/proposals/${proposalId}/votes/${addresses[0]}`)).to.deep.equal(vote);
    // MsgDeposit transactions only: v0.41 does not count the initial deposit of MsgSubmitProposal
    const deposit = { proposal_id: proposalId, depositor: addresses[1]!, amount: [{ denom: "uhub", amount: "1000" }] };
    expect(await legacy(`/gov/proposals/${proposalId}/deposits`)).to.deep.equal([deposit]);
    expect(await legacy(`/gov/proposals/${proposalId}/deposits/${addresses[1]}`)).to.deep.equal(deposit);

    const noVote = await get(`/gov/proposals/${proposalId}/votes/${addresses[2]}`);
    expect([noVote.status, noVote.body]).to.deep.equal([404, { error: `address '${addresses[2]}' did not vote on proposalID ${proposalId}` }]);
    const noDeposit = await get(`/gov/proposals/${proposalId}/deposits/${addresses[3]}`);
    expect([noDeposit.status, noDeposit.body]).to.deep.equal([404, { error: `address '${addresses[3]}' did not deposit to proposalID ${proposalId}` }]);
  });
});
