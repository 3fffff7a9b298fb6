import { expect } from "chai";
import { MsgDeposit, MsgSubmitProposal, MsgVote } from "cosmjs-types/cosmos/gov/v1beta1/tx";
import { TextProposal, VoteOption } from "cosmjs-types/cosmos/gov/v1beta1/gov";
import { ParameterChangeProposal } from "cosmjs-types/cosmos/params/v1beta1/params";
import { CommunityPoolSpendProposal } from "cosmjs-types/cosmos/distribution/v1beta1/distribution";
import { attributesOf, FEE, NodeTxKit } from "../../../helpers/nodeTxKit.js";

const DAY = 86_400_000;
type Json = Record<string, any>;
const uhub = (amount: bigint | number) => [{ denom: "uhub", amount: String(amount) }];

/** The gov Msgs and the end of deposit and voting periods, in blocks of an in-process dev node. */
describe("gov Msgs and proposal periods", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;

  before(async () => {
    kit = await NodeTxKit.open(6);
  });
  after(() => kit.close());

  const text = (title = "A test proposal", description = "Described.") => ({
    typeUrl: "/core.gov.v1beta1.TextProposal",
    value: TextProposal.encode(TextProposal.fromPartial({ title, description })).finish(),
  });
  const paramChange = (changes: Array<{ subspace: string; key: string; value: string }>) => ({
    typeUrl: "/core.params.v1beta1.ParameterChangeProposal",
    value: ParameterChangeProposal.encode(ParameterChangeProposal.fromPartial({ title: "Change a parameter", description: "Changed.", changes })).finish(),
  });
  const spend = (recipient: string, amount: bigint) => ({
    typeUrl: "/core.distribution.v1beta1.CommunityPoolSpendProposal",
    value: CommunityPoolSpendProposal.encode(
      CommunityPoolSpendProposal.fromPartial({ title: "Spend", description: "From the pool.", recipient, amount: uhub(amount) }),
    ).finish(),
  });
  const submit = (from: number, content: { typeUrl: string; value: Uint8Array }, deposit: bigint) => ({
    typeUrl: "/core.gov.v1beta1.MsgSubmitProposal",
    value: MsgSubmitProposal.fromPartial({ content, initialDeposit: uhub(deposit), proposer: kit.addresses[from]! }),
  });
  const deposit = (from: number, id: number, amount: bigint) => ({
    typeUrl: "/core.gov.v1beta1.MsgDeposit",
    value: MsgDeposit.fromPartial({ proposalId: BigInt(id), depositor: kit.addresses[from]!, amount: uhub(amount) }),
  });
  const vote = (from: number, id: number, option: VoteOption) => ({
    typeUrl: "/core.gov.v1beta1.MsgVote",
    value: MsgVote.fromPartial({ proposalId: BigInt(id), voter: kit.addresses[from]!, option }),
  });
  const proposal = async (id: number, height = 0) => (await kit.query("core.gov.v1beta1.Query.Proposal", { proposal_id: id }, height)).body.proposal as Json;
  const merged = (events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>, type: string) =>
    Object.fromEntries(events.filter((e) => e.type === type).flatMap((e) => e.attributes.map((a) => [a.key, a.value])));

  it("submits a text proposal with the minimum deposit: the voting period starts at once", async () => {
    const balance = await kit.balance(kit.addresses[4]!);
    const r = await kit.deliver(4, [submit(4, text(), 10_000_000n)]);
    expect(r.code, r.log).to.equal(0);
    expect(merged(r.logEvents, "submit_proposal")).to.deep.equal({ proposal_id: "3", proposal_type: "Text", voting_period_start: "3" });
    expect(merged(r.logEvents, "proposal_deposit")).to.deep.equal({ amount: "10000000uhub", proposal_id: "3" });
    expect(attributesOf(r.logEvents, "transfer")).to.deep.equal([{ recipient: kit.moduleAccount("gov"), sender: kit.addresses[4]!, amount: "10000000uhub" }]);
    expect(r.logEvents.find((e) => e.type === "message")!.attributes.map((a) => a.value)).to.deep.equal([
      "submit_proposal",
      kit.addresses[4],
      "gov",
      kit.addresses[4],
    ]);
    const p = await proposal(3);
    const time = new Date((await kit.node.committed(r.height))!.block.block.header.time);
    expect(p).to.include({ proposal_id: "3", status: "PROPOSAL_STATUS_VOTING_PERIOD" });
    expect(p.content).to.deep.equal({ "@type": "/core.gov.v1beta1.TextProposal", title: "A test proposal", description: "Described." });
    expect(p.total_deposit).to.deep.equal(uhub(10_000_000));
    expect(Date.parse(p.voting_end_time) - time.getTime()).to.equal(2 * DAY);
    expect(Date.parse(p.deposit_end_time) - time.getTime()).to.equal(2 * DAY);
    expect(await kit.balance(kit.addresses[4]!)).to.equal(balance - 10_000_000n - FEE);
  });

  it("keeps a proposal below the minimum in its deposit period until a deposit reaches it", async () => {
    const r = await kit.deliver(5, [submit(5, text("Small deposit"), 1_000_000n)]);
    expect(merged(r.logEvents, "submit_proposal")).to.deep.equal({ proposal_id: "4", proposal_type: "Text" });
    expect(await proposal(4)).to.include({ status: "PROPOSAL_STATUS_DEPOSIT_PERIOD", voting_start_time: "0001-01-01T00:00:00Z" });
    const d = await kit.deliver(4, [deposit(4, 4, 9_000_000n)]);
    expect(d.code, d.log).to.equal(0);
    expect(merged(d.logEvents, "proposal_deposit")).to.deep.equal({ amount: "9000000uhub", proposal_id: "4", voting_period_start: "4" });
    expect(await proposal(4)).to.include({ status: "PROPOSAL_STATUS_VOTING_PERIOD" });
    const deposits = (await kit.query("core.gov.v1beta1.Query.Deposits", { proposal_id: 4 })).body.deposits as Json[];
    expect(deposits).to.have.deep.members([
      { proposal_id: "4", depositor: kit.addresses[4]!, amount: uhub(9_000_000) },
      { proposal_id: "4", depositor: kit.addresses[5]!, amount: uhub(1_000_000) },
    ]);
    // a proposal that stays short of the minimum
    expect((await kit.deliver(5, [submit(5, text("Never funded"), 1_000_000n)])).code).to.equal(0);
  });

  it("records votes; refuses votes out of the voting period, on unknown proposals, and invalid options", async () => {
    const r = await kit.deliver(0, [vote(0, 3, VoteOption.VOTE_OPTION_YES)]);
    expect(r.code, r.log).to.equal(0);
    expect(attributesOf(r.logEvents, "proposal_vote")).to.deep.equal([{ option: "VOTE_OPTION_YES", proposal_id: "3" }]);
    expect((await kit.query("core.gov.v1beta1.Query.Vote", { proposal_id: 3, voter: kit.addresses[0] })).body.vote).to.deep.equal({
      proposal_id: "3",
      voter: kit.addresses[0]!,
      option: "VOTE_OPTION_YES",
    });
    const inactive = await kit.deliver(0, [vote(0, 5, VoteOption.VOTE_OPTION_YES)]);
    expect([inactive.code, inactive.codespace, inactive.log]).to.deep.equal([3, "gov", "failed to execute message; message index: 0: 5: inactive proposal"]);
    const unknown = await kit.deliver(0, [vote(0, 99, VoteOption.VOTE_OPTION_YES)]);
    expect([unknown.code, unknown.codespace, unknown.log]).to.deep.equal([2, "gov", "failed to execute message; message index: 0: 99: unknown proposal"]);
    const invalid = await kit.deliver(0, [vote(0, 3, VoteOption.VOTE_OPTION_UNSPECIFIED)]);
    expect([invalid.checkCode, invalid.codespace, invalid.checkLog]).to.deep.equal([7, "gov", "VOTE_OPTION_UNSPECIFIED: invalid vote option"]);
    const noDeposit = await kit.deliver(4, [deposit(4, 2, 1n)]);
    expect(noDeposit.code, noDeposit.log).to.equal(0);
    const closed = await kit.deliver(4, [deposit(4, 1, 1n)]);
    expect([closed.code, closed.log]).to.deep.equal([3, "failed to execute message; message index: 0: 1: inactive proposal"]);
  });

  it("checks parameter changes and community pool spends by executing them at submission", async () => {
    const fails = async (content: { typeUrl: string; value: Uint8Array }, code: number, codespace: string, log: string) => {
      const before = await kit.balance(kit.addresses[4]!);
      const r = await kit.deliver(4, [submit(4, content, 10_000_000n)]);
      expect([r.code, r.codespace, r.log]).to.deep.equal([code, codespace, log]);
      // only the fee is charged: the deposit stays with the proposer
      expect(await kit.balance(kit.addresses[4]!)).to.equal(before - FEE);
    };
    const prefix = "failed to execute message; message index: 0: ";
    await fails(paramChange([{ subspace: "nosuch", key: "Key", value: "1" }]), 5, "gov", `${prefix}nosuch: unknown subspace: invalid proposal content`);
    await fails(
      paramChange([{ subspace: "staking", key: "MaxValidators", value: "0" }]),
      5,
      "gov",
      `${prefix}key: MaxValidators, value: 0, err: max validators must be positive: failed to set parameter: invalid proposal content`,
    );
    // the real Subspace.Update panics on a key it does not have (its log also carries the Go stack)
    await fails(
      paramChange([{ subspace: "staking", key: "Nope", value: "1" }]),
      111222,
      "undefined",
      `${prefix}recovered: parameter Nope not registered: panic`,
    );
    await fails(
      spend(kit.addresses[5]!, 10n ** 15n),
      5,
      "gov",
      `${prefix}community pool does not have sufficient coins to distribute: invalid proposal content`,
    );
    const blank = await kit.deliver(4, [submit(4, text(" "), 1n)]);
    expect([blank.checkCode, blank.codespace, blank.checkLog]).to.deep.equal([5, "gov", "proposal title cannot be blank: invalid proposal content"]);
    const empty = await kit.deliver(4, [submit(4, paramChange([]), 1n)]);
    expect([empty.checkCode, empty.codespace, empty.checkLog]).to.deep.equal([4, "params", "submitted parameter changes are empty"]);
    // nothing of the failed submissions stayed: the next proposal is 6
    const change = await kit.deliver(4, [submit(4, paramChange([{ subspace: "staking", key: "MaxValidators", value: "50" }]), 10_000_000n)]);
    expect(merged(change.logEvents, "submit_proposal")).to.include({ proposal_id: "6", proposal_type: "ParameterChange" });
    const pool = await kit.deliver(4, [submit(4, spend(kit.addresses[5]!, 1_000_000n), 10_000_000n)]);
    expect(merged(pool.logEvents, "submit_proposal")).to.include({ proposal_id: "7", proposal_type: "CommunityPoolSpend" });
    for (const id of [6, 7]) expect((await kit.deliver(0, [vote(0, id, VoteOption.VOTE_OPTION_YES)])).code).to.equal(0);
  });

  it("ends the periods: tallies, sets PASSED or REJECTED with the final tally, refunds or burns, executes passed content", async () => {
    const validatorA = (await kit.query("core.staking.v1beta1.Query.Validator", { validator_addr: kit.valoper(0) })).body.validator as Json;
    const before = { account4: await kit.balance(kit.addresses[4]!), account5: await kit.balance(kit.addresses[5]!), height: kit.height };
    const end = await kit.block(new Date(Date.now() + 3 * DAY));
    const supplyBefore = BigInt(((await kit.query("core.bank.v1beta1.Query.SupplyOf", { denom: "uhub" }, end.height - 1)).body.amount as Json).amount);
    const results = Object.fromEntries(attributesOf(end.endEvents, "active_proposal").map((e) => [e.proposal_id, e.proposal_result]));
    expect(results).to.deep.equal({
      "2": "proposal_rejected",
      "3": "proposal_passed",
      "4": "proposal_rejected",
      "6": "proposal_passed",
      "7": "proposal_passed",
    });
    expect(attributesOf(end.endEvents, "inactive_proposal")).to.deep.equal([{ proposal_id: "5", proposal_result: "proposal_dropped" }]);

    // proposal 3: validator A voted yes with all its bonded tokens (its delegators did not vote)
    const passed = await proposal(3);
    expect(passed.status).to.equal("PROPOSAL_STATUS_PASSED");
    const yes = BigInt(passed.final_tally_result.yes);
    expect(yes <= BigInt(validatorA.tokens) && yes >= BigInt(validatorA.tokens) - 1n).to.equal(true);
    expect((await kit.query("core.gov.v1beta1.Query.TallyResult", { proposal_id: 3 })).body.tally).to.deep.equal(passed.final_tally_result);
    expect((await kit.query("core.gov.v1beta1.Query.Votes", { proposal_id: 3 })).body.votes).to.deep.equal([]);
    // proposal 2 (genesis): account 1's yes is outweighed by validator A's no
    const rejected = await proposal(2);
    expect(rejected.status).to.equal("PROPOSAL_STATUS_REJECTED");
    expect(BigInt(rejected.final_tally_result.no) > BigInt(rejected.final_tally_result.yes)).to.equal(true);
    // proposal 4 had no votes: below quorum, its deposits are burned; proposal 5 never reached the minimum: deleted, burned
    expect((await proposal(4)).status).to.equal("PROPOSAL_STATUS_REJECTED");
    expect((await kit.query("core.gov.v1beta1.Query.Proposal", { proposal_id: 5 })).code).to.equal(22);
    const minted = BigInt(attributesOf(end.beginEvents, "mint")[0]!.mint_coin!);
    const supplyAfter = BigInt(((await kit.query("core.bank.v1beta1.Query.SupplyOf", { denom: "uhub" }, end.height)).body.amount as Json).amount);
    expect(supplyAfter).to.equal(supplyBefore + minted - 10_000_000n - 1_000_000n);
    // everything else is refunded; the gov account is empty
    expect(await kit.balance(kit.moduleAccount("gov"))).to.equal(0n);
    expect(await kit.balance(kit.addresses[4]!)).to.equal(before.account4 + 10_000_000n + 1n + 10_000_000n + 10_000_000n);
    // the passed content ran: the staking parameter changed, the pool paid account 5
    expect(((await kit.query("core.staking.v1beta1.Query.Params")).body.params as Json).max_validators).to.equal(50);
    expect(await kit.balance(kit.addresses[5]!)).to.equal(before.account5 + 1_000_000n);
    expect(attributesOf(end.endEvents, "transfer")).to.deep.include({
      recipient: kit.addresses[5]!,
      sender: kit.moduleAccount("distribution"),
      amount: "1000000uhub",
    });
  });
});
