import { expect } from "chai";
import {
  MsgFundCommunityPool,
  MsgSetWithdrawAddress,
  MsgWithdrawDelegatorReward,
  MsgWithdrawValidatorCommission,
} from "cosmjs-types/cosmos/distribution/v1beta1/tx";
import { MsgDelegate, MsgUndelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { parseDec } from "../../../../src/codec/decimal.js";
import { attributesOf, FEE, NodeTxKit } from "../../../helpers/nodeTxKit.js";

const ONE = 10n ** 18n;
type Json = Record<string, any>;
const uhubOf = (coins: unknown) => parseDec(String(((coins ?? []) as Array<{ denom: string; amount: string }>).find((c) => c.denom === "uhub")?.amount ?? "0"));

/** The distribution Msgs in blocks of an in-process dev node: rewards, commission, withdraw address, community pool. */
describe("distribution Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  let valA: string;

  before(async () => {
    kit = await NodeTxKit.open(6);
    valA = kit.valoper(0);
    // a few blocks, so that fees and inflation have been allocated
    for (let i = 0; i < 3; i++) await kit.block();
  });
  after(() => kit.close());

  const withdrawRewards = (from: number, validator: string) => ({
    typeUrl: "/core.distribution.v1beta1.MsgWithdrawDelegatorReward",
    value: MsgWithdrawDelegatorReward.fromPartial({ delegatorAddress: kit.addresses[from]!, validatorAddress: validator }),
  });
  const withdrawCommission = (from: number) => ({
    typeUrl: "/core.distribution.v1beta1.MsgWithdrawValidatorCommission",
    value: MsgWithdrawValidatorCommission.fromPartial({ validatorAddress: kit.valoper(from) }),
  });
  const setWithdrawAddress = (from: number, to: string) => ({
    typeUrl: "/core.distribution.v1beta1.MsgSetWithdrawAddress",
    value: MsgSetWithdrawAddress.fromPartial({ delegatorAddress: kit.addresses[from]!, withdrawAddress: to }),
  });
  const fund = (from: number, amount: bigint) => ({
    typeUrl: "/core.distribution.v1beta1.MsgFundCommunityPool",
    value: MsgFundCommunityPool.fromPartial({ depositor: kit.addresses[from]!, amount: [{ denom: "uhub", amount: amount.toString() }] }),
  });

  const rewards = async (from: number, height = 0) =>
    uhubOf(
      (await kit.query("core.distribution.v1beta1.Query.DelegationRewards", { delegator_address: kit.addresses[from], validator_address: valA }, height)).body
        .rewards,
    );
  const commission = async (height = 0) =>
    uhubOf(((await kit.query("core.distribution.v1beta1.Query.ValidatorCommission", { validator_address: valA }, height)).body.commission as Json).commission);
  const communityPool = async (height = 0) => uhubOf((await kit.query("core.distribution.v1beta1.Query.CommunityPool", {}, height)).body.pool);
  /** The rewards a block's allocation gave validator A (the rewards events of its begin block). */
  const allocatedToA = (events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>) =>
    attributesOf(events, "rewards")
      .filter((e) => e.validator === valA)
      .reduce((sum, e) => sum + parseDec(e.amount!.replace("uhub", "")), 0n);

  it("withdraws a delegation's rewards: what the rewards route showed, plus the share of the withdrawing block", async () => {
    const balance = await kit.balance(kit.addresses[0]!);
    const r = await kit.deliver(0, [withdrawRewards(0, valA)]);
    expect(r.code, r.log).to.equal(0);
    // what the rewards route showed at the height before the withdrawal
    const shown = await rewards(0, r.height - 1);
    expect(shown > 0n).to.equal(true);
    const [event] = attributesOf(r.logEvents, "withdraw_rewards");
    expect(event!.validator).to.equal(valA);
    const withdrawn = BigInt(event!.amount!.replace("uhub", ""));
    expect(await kit.balance(kit.addresses[0]!)).to.equal(balance + withdrawn - FEE);
    // the block's own allocation was added before the withdrawal: at most A's whole new reward
    const lower = shown / ONE;
    expect(withdrawn >= lower, `${withdrawn} >= ${lower}`).to.equal(true);
    expect(withdrawn <= (shown + allocatedToA(r.beginEvents)) / ONE + 1n).to.equal(true);
    expect(attributesOf(r.logEvents, "transfer")).to.deep.equal([
      { recipient: kit.addresses[0]!, sender: kit.moduleAccount("distribution"), amount: `${withdrawn}uhub` },
    ]);
    // a new period starts: nothing is owed at the withdrawal's height
    expect(await rewards(0, r.height)).to.equal(0n);
  });

  it("fails without a delegation or for an unknown validator", async () => {
    const balance = await kit.balance(kit.addresses[5]!);
    const none = await kit.deliver(5, [withdrawRewards(5, valA)]);
    expect([none.code, none.codespace, none.log]).to.deep.equal([
      5,
      "distribution",
      "failed to execute message; message index: 0: no delegation distribution info",
    ]);
    const unknown = await kit.deliver(5, [withdrawRewards(5, kit.valoper(5))]);
    expect([unknown.code, unknown.codespace, unknown.log]).to.deep.equal([
      6,
      "distribution",
      "failed to execute message; message index: 0: no validator distribution info",
    ]);
    expect(await kit.balance(kit.addresses[5]!)).to.equal(balance - 2n * FEE);
    const empty = await kit.deliver(5, [withdrawRewards(5, "")]);
    expect([empty.checkCode, empty.codespace, empty.checkLog]).to.deep.equal([4, "distribution", "validator address is empty"]);
  });

  it("sets a withdraw address: later rewards go there; a module account is refused", async () => {
    const r = await kit.deliver(0, [setWithdrawAddress(0, kit.addresses[5]!)]);
    expect(r.code, r.log).to.equal(0);
    expect(attributesOf(r.logEvents, "set_withdraw_address")).to.deep.equal([{ withdraw_address: kit.addresses[5]! }]);
    expect((await kit.query("core.distribution.v1beta1.Query.DelegatorWithdrawAddress", { delegator_address: kit.addresses[0] })).body).to.deep.equal({
      withdraw_address: kit.addresses[5]!,
    });
    const [own, target] = [await kit.balance(kit.addresses[0]!), await kit.balance(kit.addresses[5]!)];
    const w = await kit.deliver(0, [withdrawRewards(0, valA)]);
    const withdrawn = BigInt(attributesOf(w.logEvents, "withdraw_rewards")[0]!.amount!.replace("uhub", ""));
    expect(withdrawn > 0n).to.equal(true);
    expect(await kit.balance(kit.addresses[0]!)).to.equal(own - FEE);
    expect(await kit.balance(kit.addresses[5]!)).to.equal(target + withdrawn);
    const blocked = kit.moduleAccount("distribution");
    const refused = await kit.deliver(0, [setWithdrawAddress(0, blocked)]);
    expect([refused.code, refused.codespace, refused.log]).to.deep.equal([
      4,
      "sdk",
      `failed to execute message; message index: 0: ${blocked} is not allowed to receive external funds: unauthorized`,
    ]);
  });

  it("withdraws the validator's commission: the whole coins, the decimals stay", async () => {
    const target = await kit.balance(kit.addresses[5]!);
    const r = await kit.deliver(0, [withdrawCommission(0)]);
    expect(r.code, r.log).to.equal(0);
    const accumulated = await commission(r.height - 1);
    const [event] = attributesOf(r.logEvents, "withdraw_commission");
    const paid = BigInt(event!.amount!.replace("uhub", ""));
    // the commission of the withdrawing block's allocation comes on top of what was accumulated
    const added = attributesOf(r.beginEvents, "commission")
      .filter((e) => e.validator === valA)
      .reduce((sum, e) => sum + parseDec(e.amount!.replace("uhub", "")), 0n);
    expect(paid).to.equal((accumulated + added) / ONE);
    expect(await commission(r.height)).to.equal((accumulated + added) % ONE);
    // account 0 withdraws to account 5 now
    expect(await kit.balance(kit.addresses[5]!)).to.equal(target + paid);
    const none = await kit.deliver(2, [withdrawCommission(2)]);
    expect([none.code, none.codespace, none.log]).to.deep.equal([
      7,
      "distribution",
      "failed to execute message; message index: 0: no validator commission to withdraw",
    ]);
  });

  it("funds the community pool from an account; more than the balance fails", async () => {
    const balance = await kit.balance(kit.addresses[4]!);
    const r = await kit.deliver(4, [fund(4, 1_000_000n)]);
    expect(r.code, r.log).to.equal(0);
    const before = await communityPool(r.height - 1);
    expect(attributesOf(r.logEvents, "transfer")).to.deep.equal([
      { recipient: kit.moduleAccount("distribution"), sender: kit.addresses[4]!, amount: "1000000uhub" },
    ]);
    expect(r.logEvents.find((e) => e.type === "message")!.attributes).to.deep.equal([
      { key: "action", value: "fund_community_pool" },
      { key: "sender", value: kit.addresses[4] },
      { key: "module", value: "distribution" },
      { key: "sender", value: kit.addresses[4] },
    ]);
    expect(await kit.balance(kit.addresses[4]!)).to.equal(balance - 1_000_000n - FEE);
    // the pool also got the block's community tax
    const after = await communityPool(r.height);
    expect(after - before >= 1_000_000n * ONE).to.equal(true);
    const tax = attributesOf(r.beginEvents, "rewards").reduce((sum, e) => sum + parseDec(e.amount!.replace("uhub", "")), 0n);
    expect(after - before - 1_000_000n * ONE < tax).to.equal(true);
    const tooMuch = await kit.deliver(4, [fund(4, 10n ** 15n)]);
    expect([tooMuch.code, tooMuch.codespace]).to.deep.equal([5, "sdk"]);
    expect(tooMuch.log).to.match(/^failed to execute message; message index: 0: \d+uhub is smaller than 1000000000000000uhub: insufficient funds$/);
  });

  it("keeps the module account equal to the outstanding rewards plus the community pool (truncated), block after block", async () => {
    for (let i = 0; i < 3; i++) {
      const { height } = await kit.block();
      const outstanding = async (validator: string) =>
        uhubOf(
          ((await kit.query("core.distribution.v1beta1.Query.ValidatorOutstandingRewards", { validator_address: validator }, height)).body.rewards as Json)
            .rewards,
        );
      const held = (await outstanding(valA)) + (await outstanding(kit.valoper(2))) + (await communityPool(height));
      expect(await kit.balance(kit.moduleAccount("distribution"), height)).to.equal(held / ONE);
    }
  });

  it("keeps F1 consistent through delegation changes: the outstanding rewards cover every delegation's rewards and the commission", async () => {
    const coin = { denom: "uhub", amount: "3000000" };
    const delegate = {
      typeUrl: "/core.staking.v1beta1.MsgDelegate",
      value: MsgDelegate.fromPartial({ delegatorAddress: kit.addresses[4]!, validatorAddress: valA, amount: coin }),
    };
    const undelegate = {
      typeUrl: "/core.staking.v1beta1.MsgUndelegate",
      value: MsgUndelegate.fromPartial({ delegatorAddress: kit.addresses[1]!, validatorAddress: valA, amount: coin }),
    };
    expect((await kit.deliver(4, [delegate])).code).to.equal(0);
    expect((await kit.deliver(1, [undelegate])).code).to.equal(0);
    expect((await kit.deliver(4, [delegate])).code).to.equal(0);
    const { height } = await kit.block();
    const delegations = (await kit.query("core.staking.v1beta1.Query.ValidatorDelegations", { validator_addr: valA }, height)).body
      .delegation_responses as Json[];
    expect(delegations.length).to.equal(3);
    let owed = await commission(height);
    for (const d of delegations) {
      const r = await kit.query(
        "core.distribution.v1beta1.Query.DelegationRewards",
        { delegator_address: d.delegation.delegator_address, validator_address: valA },
        height,
      );
      owed += uhubOf(r.body.rewards);
    }
    const outstanding = uhubOf(
      ((await kit.query("core.distribution.v1beta1.Query.ValidatorOutstandingRewards", { validator_address: valA }, height)).body.rewards as Json).rewards,
    );
    expect(owed <= outstanding, `${owed} <= ${outstanding}`).to.equal(true);
    expect(outstanding - owed < ONE).to.equal(true);
  });
});
