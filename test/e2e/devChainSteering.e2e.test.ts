import { expect } from "chai";
import type { EncodeObject } from "@cosmjs/proto-signing";
import { HttpClient } from "@cosmjs/tendermint-rpc";
import { MsgDelegate, MsgUndelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { MsgSubmitProposal, MsgVote } from "cosmjs-types/cosmos/gov/v1beta1/tx";
import { TextProposal, VoteOption } from "cosmjs-types/cosmos/gov/v1beta1/gov";
import { MAX_ADVANCE_BLOCKS } from "../../src/node/rpc/devChainMethods.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { aminoWallet } from "../helpers/aminoWallet.js";
import { http } from "../helpers/http.js";
import { LegacyTxFlow } from "../helpers/legacyTxFlow.js";
import { createHtlcFields } from "../helpers/htlcFields.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";
import { useStartedDevChain } from "../helpers/startedDevChain.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { readDevChain } from "../helpers/stakingDevChain.js";

type Json = Record<string, any>;
const DAY_SECONDS = 86_400;

/**
 * Steering the dev chain over the node's JSON-RPC, called with cosmjs's
 * HttpClient: advance_blocks, advance_time and set_auto_blocks on a started
 * node with the dev genesis's real periods (a 2-day voting period, 21-day unbonding).
 */
describe("e2e: steering the dev chain (advance_blocks, advance_time, set_auto_blocks)", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain({ accounts: 6, mnemonic: TEST_MNEMONIC });
  let rpc: HttpClient;
  let signers: TestSigner[];
  const sequences = new Map<number, number>();

  before(async () => {
    rpc = new HttpClient(chain.node().rpcUrl);
    signers = await Promise.all([0, 1, 2, 3, 4].map((i) => testSigner(TEST_MNEMONIC, i)));
  });

  const call = async (method: string, params: Record<string, string | boolean> = {}): Promise<Json> =>
    (await rpc.execute({ jsonrpc: "2.0", id: 1, method, params })).result as Json;
  const rpcError = async (method: string, params: Record<string, unknown> | unknown[]) => {
    const r = await http(chain.node().rpcUrl, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }) });
    return r.body.error as { code: number; message: string; data: string };
  };
  const height = async () => Number((await call("status")).sync_info.latest_block_height);
  const blockTime = async (at: number) => Date.parse((await call("block", { height: String(at) })).block.header.time);
  const body = async (route: string) => chain.ok(route) as Promise<Json>;
  const balance = async (address: string) => BigInt((await body(`/core/bank/v1beta1/balances/${address}/uhub`)).balance.amount);

  async function broadcast(index: number, messages: EncodeObject[]): Promise<Json> {
    const sequence = sequences.get(index) ?? 0;
    const bytes = await directTx(signers[index]!, { messages, sequence, accountNumber: index, gas: 400_000 });
    const r = await http(`${chain.node().restUrl}/core/tx/v1beta1/txs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tx_bytes: Buffer.from(bytes).toString("base64"), mode: "BROADCAST_MODE_BLOCK" }),
    });
    expect(r.status, r.text).to.equal(200);
    const response = r.body.tx_response as Json;
    expect(response.code, response.raw_log).to.equal(0);
    sequences.set(index, sequence + 1);
    return response;
  }

  it("advance_blocks makes that many empty blocks, each later than the one before", async () => {
    const start = await height();
    expect(await call("advance_blocks", { num_blocks: "300" })).to.deep.equal({});
    expect(await height()).to.equal(start + 300);
    const block = (await call("block", { height: String(start + 150) })).block;
    expect(block.data.txs).to.equal(null);
    expect(await blockTime(start + 300)).to.be.greaterThan(await blockTime(start + 299));
  });

  it("refuses a num_blocks or duration outside its bounds with Invalid params naming the bound", async () => {
    for (const num_blocks of ["0", String(MAX_ADVANCE_BLOCKS + 1), "99999999999999999999"]) {
      const error = await rpcError("advance_blocks", { num_blocks });
      expect(error.code).to.equal(-32602);
      expect(error.data).to.include(`num_blocks must be an integer from 1 to ${MAX_ADVANCE_BLOCKS}`);
    }
    expect((await rpcError("advance_blocks", { num_blocks: "1e3" })).code).to.equal(-32602);
    expect((await rpcError("advance_blocks", ["0"])).data).to.include("num_blocks must be an integer from 1"); // positional params too
    expect((await rpcError("advance_time", { duration_in_seconds: "-1" })).data).to.include("duration_in_seconds must be an integer from 0");
  });

  it("advance_time moves the next block's time by that much", async () => {
    const before = await blockTime(await height());
    const { new_time } = await call("advance_time", { duration_in_seconds: String(3 * DAY_SECONDS) });
    expect(Date.parse(new_time) - before).to.be.at.least(3 * DAY_SECONDS * 1000);
    await call("advance_blocks", { num_blocks: "1" });
    expect(await blockTime(await height())).to.be.at.least(Date.parse(new_time));
  });

  it("passes a gov proposal's 2-day voting period in seconds", async () => {
    const votingPeriod = (await body("/core/gov/v1beta1/params/voting")).voting_params.voting_period as string;
    expect(votingPeriod).to.equal("172800s");
    const content = {
      typeUrl: "/core.gov.v1beta1.TextProposal",
      value: TextProposal.encode(TextProposal.fromPartial({ title: "Steered", description: "Voting ends by advance_time." })).finish(),
    };
    const submitted = await broadcast(3, [
      {
        typeUrl: "/core.gov.v1beta1.MsgSubmitProposal",
        value: MsgSubmitProposal.fromPartial({ content, initialDeposit: [{ denom: "uhub", amount: "10000000" }], proposer: chain.accounts()[3]! }),
      },
    ]);
    const id = submitted.logs[0].events.find((e: Json) => e.type === "submit_proposal").attributes.find((a: Json) => a.key === "proposal_id").value as string;
    for (const voter of [0, 2]) {
      await broadcast(voter, [
        {
          typeUrl: "/core.gov.v1beta1.MsgVote",
          value: MsgVote.fromPartial({ proposalId: BigInt(id), voter: chain.accounts()[voter]!, option: VoteOption.VOTE_OPTION_YES }),
        },
      ]);
    }
    expect((await body(`/core/gov/v1beta1/proposals/${id}`)).proposal.status).to.equal("PROPOSAL_STATUS_VOTING_PERIOD");
    await call("advance_time", { duration_in_seconds: String(2 * DAY_SECONDS + 1) });
    await call("advance_blocks", { num_blocks: "1" });
    expect((await body(`/core/gov/v1beta1/proposals/${id}`)).proposal.status).to.equal("PROPOSAL_STATUS_PASSED");
  });

  it("completes a 21-day unbonding by advance_time: the coins return to the delegator", async () => {
    const delegator = chain.accounts()[4]!;
    const validator = readDevChain(chain.home).a.operator;
    const amount = { denom: "uhub", amount: "3000000" };
    await broadcast(4, [
      { typeUrl: "/core.staking.v1beta1.MsgDelegate", value: MsgDelegate.fromPartial({ delegatorAddress: delegator, validatorAddress: validator, amount }) },
    ]);
    await broadcast(4, [
      {
        typeUrl: "/core.staking.v1beta1.MsgUndelegate",
        value: MsgUndelegate.fromPartial({ delegatorAddress: delegator, validatorAddress: validator, amount }),
      },
    ]);
    const route = `/core/staking/v1beta1/validators/${validator}/delegations/${delegator}/unbonding_delegation`;
    const entry = (await body(route)).unbond.entries[0] as Json;
    const afterUndelegate = await balance(delegator);
    const unbondingSeconds = Number(((await body("/core/staking/v1beta1/params")).params.unbonding_time as string).replace(/s$/, ""));
    expect(unbondingSeconds).to.equal(21 * DAY_SECONDS);
    await call("advance_time", { duration_in_seconds: String(unbondingSeconds) });
    await call("advance_blocks", { num_blocks: "1" });
    expect((await chain.get(route)).status).to.equal(404);
    expect(await balance(delegator)).to.equal(afterUndelegate + BigInt(entry.balance));
  });

  it("set_auto_blocks false keeps transactions waiting until advance_blocks mines them", async () => {
    expect(await call("set_auto_blocks", { enabled: false })).to.deep.equal({ auto_blocks: false });
    const start = await height();
    const sequence = sequences.get(1) ?? 0;
    const bytes = await directTx(signers[1]!, {
      messages: [send(chain.accounts()[1]!, chain.accounts()[2]!, "5")],
      sequence,
      accountNumber: 1,
      gas: 200_000,
    });
    const sync = await call("broadcast_tx_sync", { tx: Buffer.from(bytes).toString("base64") });
    expect(sync.code).to.equal(0);
    expect((await call("num_unconfirmed_txs")).n_txs).to.equal("1");
    expect(await height()).to.equal(start);
    await call("advance_blocks", { num_blocks: "2" });
    expect(await height()).to.equal(start + 2);
    expect((await call("block", { height: String(start + 1) })).block.data.txs).to.have.length(1);
    expect((await call("num_unconfirmed_txs")).n_txs).to.equal("0");
    expect(await call("set_auto_blocks", { enabled: true })).to.deep.equal({ auto_blocks: true });
  });

  it("passes an HTLC's time lock (counted in blocks) by advance_blocks: it expires at its expiration height", async () => {
    const [sender, to] = await Promise.all([aminoWallet(5), aminoWallet(2)]);
    const hashLock = Buffer.from(sha256(sha256(new TextEncoder().encode("steered secret")))).toString("hex");
    const flow = new LegacyTxFlow(() => chain.node().restUrl);
    const sent = await flow.send(sender, "/htlc/htlcs", createHtlcFields(sender.address, to.address, hashLock, 50));
    expect(sent.body.code, sent.body.raw_log).to.equal(undefined);
    const htlc = async () => (await body(`/extmod/htlc/htlcs/${hashLock}`)).htlc as Json;
    const open = await htlc();
    expect(open.state).to.equal("HTLC_STATE_OPEN");
    expect(Number(open.expiration_height)).to.equal(Number(sent.body.height) + 50);
    await call("advance_blocks", { num_blocks: String(Number(open.expiration_height) - 1 - (await height())) });
    expect((await htlc()).state).to.equal("HTLC_STATE_OPEN");
    await call("advance_blocks", { num_blocks: "1" });
    expect((await htlc()).state).to.equal("HTLC_STATE_EXPIRED");
  });
});
