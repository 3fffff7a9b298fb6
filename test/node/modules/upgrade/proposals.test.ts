import { expect } from "chai";
import { MsgSubmitProposal, MsgVote } from "cosmjs-types/cosmos/gov/v1beta1/tx";
import { VoteOption } from "cosmjs-types/cosmos/gov/v1beta1/gov";
import { CancelSoftwareUpgradeProposal, SoftwareUpgradeProposal } from "cosmjs-types/cosmos/upgrade/v1beta1/upgrade";
import { ClientState } from "cosmjs-types/ibc/lightclients/tendermint/v1/tendermint";
import { attributesOf, NodeTxKit } from "../../../helpers/nodeTxKit.js";

const DAY = 86_400_000;
type Json = Record<string, any>;

/**
 * Software-upgrade and cancel proposals through gov, in blocks of an in-process dev node: a passed
 * proposal schedules the plan; at its height the dev chain applies it (as a new binary with a no-op
 * handler would) and runs on; a cancel clears a plan.
 */
describe("upgrade proposals", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  let clock = Date.now();
  before(async () => {
    kit = await NodeTxKit.open(4);
  });
  after(() => kit.close());

  const upgrade = (name: string, height: bigint, upgradedClientState?: { typeUrl: string; value: Uint8Array }) => ({
    typeUrl: "/core.upgrade.v1beta1.SoftwareUpgradeProposal",
    value: SoftwareUpgradeProposal.encode(
      SoftwareUpgradeProposal.fromPartial({ title: "Upgrade", description: "To v2.", plan: { name, height, info: "binaries", upgradedClientState } }),
    ).finish(),
  });
  const tendermintClient = {
    typeUrl: "/ibc.lightclients.tendermint.v1.ClientState",
    value: ClientState.encode(
      ClientState.fromPartial({
        chainId: "devnet-2",
        trustLevel: { numerator: 1n, denominator: 3n },
        trustingPeriod: { seconds: 1000n },
        unbondingPeriod: { seconds: 1814400n },
        maxClockDrift: { seconds: 10n },
        latestHeight: { revisionNumber: 2n, revisionHeight: 1n },
        upgradePath: ["upgrade", "upgradedIBCState"],
        allowUpdateAfterExpiry: true,
      }),
    ).finish(),
  };
  const cancel = {
    typeUrl: "/core.upgrade.v1beta1.CancelSoftwareUpgradeProposal",
    value: CancelSoftwareUpgradeProposal.encode(CancelSoftwareUpgradeProposal.fromPartial({ title: "Cancel", description: "Not now." })).finish(),
  };
  const submit = (content: { typeUrl: string; value: Uint8Array }) => ({
    typeUrl: "/core.gov.v1beta1.MsgSubmitProposal",
    value: MsgSubmitProposal.fromPartial({ content, initialDeposit: [{ denom: "uhub", amount: "10000000" }], proposer: kit.addresses[1]! }),
  });
  /** Submits, votes yes with the validators' accounts, and ends the voting period; the proposal's id. */
  const pass = async (content: { typeUrl: string; value: Uint8Array }) => {
    const submitted = await kit.deliver(1, [submit(content)]);
    expect(submitted.code, submitted.log).to.equal(0);
    const id = attributesOf(submitted.events, "submit_proposal")[0]!.proposal_id!;
    for (const voter of [0, 1, 2, 3]) {
      await kit.deliver(voter, [
        {
          typeUrl: "/core.gov.v1beta1.MsgVote",
          value: MsgVote.fromPartial({ proposalId: BigInt(id), voter: kit.addresses[voter]!, option: VoteOption.VOTE_OPTION_YES }),
        },
      ]);
    }
    clock += 3 * DAY;
    const end = await kit.block(new Date(clock));
    expect(attributesOf(end.endEvents, "active_proposal")).to.deep.include({ proposal_id: id, proposal_result: "proposal_passed" });
    return id;
  };
  const currentPlan = async () => (await kit.query("core.upgrade.v1beta1.Query.CurrentPlan")).body.plan as Json | null;

  it("a passed software-upgrade proposal schedules the plan; at its height the dev chain applies it and runs on", async () => {
    const planHeight = BigInt(kit.node.height + 20);
    await pass(upgrade("v2", planHeight));
    expect(await currentPlan()).to.deep.include({ name: "v2", height: String(planHeight), time: "0001-01-01T00:00:00Z", info: "binaries" });
    while (BigInt(kit.node.height) < planHeight) await kit.block(new Date((clock += 1000)));
    expect(await currentPlan()).to.equal(null);
    expect((await kit.query("core.upgrade.v1beta1.Query.AppliedPlan", { name: "v2" })).body.height).to.equal(String(planHeight));
    await kit.block(new Date((clock += 1000)));
  });

  it("an IBC plan: the block before its height records the upgraded consensus state under the plan's height, which stays after the plan applies", async () => {
    const planHeight = BigInt(kit.node.height + 20);
    await pass(upgrade("ibc-v2", planHeight, tendermintClient));
    expect((await currentPlan())!.upgraded_client_state).to.deep.include({ "@type": "/ibc.lightclients.tendermint.v1.ClientState", chain_id: "devnet-2" });
    const consensusState = () => kit.query("core.upgrade.v1beta1.Query.UpgradedConsensusState", { last_height: planHeight.toString() });
    expect((await consensusState()).code).to.not.equal(0); // nothing before the last block
    while (BigInt(kit.node.height) < planHeight - 2n) await kit.block(new Date((clock += 1000)));
    expect((await consensusState()).code).to.not.equal(0);
    const last = await kit.block(new Date((clock += 1000))); // planHeight - 1
    const previousHeader = (await kit.node.committed(last.height - 1))!.block.block.header;
    const recorded = await consensusState();
    expect(recorded.code, recorded.log).to.equal(0);
    expect(recorded.body.upgraded_consensus_state).to.deep.equal({
      "@type": "/ibc.lightclients.tendermint.v1.ConsensusState",
      timestamp: last.time.toISOString().replace(".000Z", "Z"), // proto3 JSON: 0, 3, 6 or 9 fraction digits
      root: { hash: null }, // an empty bytes field decodes to Go's nil, which the gateway writes as null
      next_validators_hash: Buffer.from(previousHeader.next_validators_hash, "hex").toString("base64"),
    });
    await kit.block(new Date((clock += 1000))); // planHeight: applied
    expect(await currentPlan()).to.equal(null);
    expect((await consensusState()).code).to.equal(0);
  });

  it("refuses an IBC plan whose client cannot upgrade (a panic, as ZeroCustomFields) or is no light client's (a decode failure)", async () => {
    const soloMachine = { typeUrl: "/ibc.lightclients.solomachine.v1.ClientState", value: new Uint8Array() };
    const solo = await kit.deliver(1, [submit(upgrade("solo", BigInt(kit.node.height + 50), soloMachine))]);
    expect([solo.codespace, solo.code]).to.deep.equal(["undefined", 111222]);
    const notAClient = await kit.deliver(1, [
      submit(upgrade("odd", BigInt(kit.node.height + 50), { typeUrl: "/core.bank.v1beta1.Params", value: new Uint8Array() })),
    ]);
    expect([notAClient.codespace, notAClient.code, notAClient.checkLog]).to.deep.equal([
      "sdk",
      2,
      "no concrete type registered for type URL /core.bank.v1beta1.Params against interface *exported.ClientState: tx parse error",
    ]);
  });

  it("refuses a plan in the past or already applied at submission, and a plan without a name in ValidateBasic", async () => {
    const past = await kit.deliver(1, [submit(upgrade("v3", 2n))]);
    expect([past.codespace, past.code, past.log]).to.deep.equal([
      "gov",
      5,
      "failed to execute message; message index: 0: upgrade cannot be scheduled in the past: invalid request: invalid proposal content",
    ]);
    const done = await kit.deliver(1, [submit(upgrade("v2", BigInt(kit.node.height + 50)))]);
    expect(done.log).to.include("upgrade with name v2 has already been completed: invalid request");
    const unnamed = await kit.deliver(1, [submit(upgrade("", 1000n))]);
    expect([unnamed.codespace, unnamed.code, unnamed.log]).to.deep.equal(["sdk", 18, "name cannot be empty: invalid request"]);
  });

  it("a passed cancel proposal clears the scheduled plan", async () => {
    await pass(upgrade("v4", BigInt(kit.node.height + 500)));
    expect((await currentPlan())!.name).to.equal("v4");
    await pass(cancel);
    expect(await currentPlan()).to.equal(null);
  });
});
