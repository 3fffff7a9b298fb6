import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { MsgBeginRedelegate, MsgCreateValidator, MsgDelegate, MsgEditValidator, MsgUndelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { MsgUnjail } from "cosmjs-types/cosmos/slashing/v1beta1/tx";
import { PubKey } from "cosmjs-types/cosmos/crypto/ed25519/keys";
import { bech32Prefixes, consensusAddressBytes } from "../../../../src/codec/addresses.js";
import { encodeBech32Address } from "../../../../src/codec/bech32.js";
import { formatDec, parseDec } from "../../../../src/codec/decimal.js";
import { attributesOf, FEE, NodeTxKit } from "../../../helpers/nodeTxKit.js";
import { aminoJsonTime, proto3JsonTime, rfc3339Seconds } from "../../../helpers/timeText.js";

const DAY = 86_400_000;
const dec = (value: unknown) => parseDec(String(value));

/** The staking Msgs and MsgUnjail in blocks of an in-process dev node: state, events, and the real errors. */
describe("staking and slashing Msgs", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  let valA: string;
  let valB: string;
  let valC: string;
  const keyC = ed25519.getPublicKey(sha256(new TextEncoder().encode("validator-c")));

  before(async () => {
    kit = await NodeTxKit.open(6);
    valA = kit.valoper(0);
    valB = kit.valoper(2);
    valC = kit.valoper(3);
  });
  after(() => kit.close());

  const coin = (amount: string | bigint, denom = "uhub") => ({ denom, amount: String(amount) });
  const delegate = (from: number, validator: string, amount: string | bigint, denom = "uhub") => ({
    typeUrl: "/core.staking.v1beta1.MsgDelegate",
    value: MsgDelegate.fromPartial({ delegatorAddress: kit.addresses[from]!, validatorAddress: validator, amount: coin(amount, denom) }),
  });
  const undelegate = (from: number, validator: string, amount: string | bigint) => ({
    typeUrl: "/core.staking.v1beta1.MsgUndelegate",
    value: MsgUndelegate.fromPartial({ delegatorAddress: kit.addresses[from]!, validatorAddress: validator, amount: coin(amount) }),
  });
  const redelegate = (from: number, src: string, dst: string, amount: string | bigint) => ({
    typeUrl: "/core.staking.v1beta1.MsgBeginRedelegate",
    value: MsgBeginRedelegate.fromPartial({ delegatorAddress: kit.addresses[from]!, validatorSrcAddress: src, validatorDstAddress: dst, amount: coin(amount) }),
  });
  const createValidator = (
    from: number,
    key: Uint8Array,
    value: ReturnType<typeof coin>,
    options: { rate?: string; maxRate?: string; minSelf?: string } = {},
  ) => ({
    typeUrl: "/core.staking.v1beta1.MsgCreateValidator",
    value: MsgCreateValidator.fromPartial({
      description: { moniker: "validator-c", details: "created by a test" },
      commission: { rate: options.rate ?? "100000000000000000", maxRate: options.maxRate ?? "200000000000000000", maxChangeRate: "10000000000000000" },
      minSelfDelegation: options.minSelf ?? "1000000",
      delegatorAddress: kit.addresses[from]!,
      validatorAddress: kit.valoper(from),
      pubkey: { typeUrl: "/core.crypto.ed25519.PubKey", value: PubKey.encode({ key }).finish() },
      value,
    }),
  });
  const edit = (from: number, fields: { moniker?: string; rate?: string; minSelf?: string }) => ({
    typeUrl: "/core.staking.v1beta1.MsgEditValidator",
    value: MsgEditValidator.fromPartial({
      description: {
        moniker: fields.moniker ?? "[do-not-modify]",
        identity: "[do-not-modify]",
        website: "[do-not-modify]",
        securityContact: "[do-not-modify]",
        details: "[do-not-modify]",
      },
      validatorAddress: kit.valoper(from),
      commissionRate: fields.rate ?? "",
      minSelfDelegation: fields.minSelf ?? "",
    }),
  });
  const unjail = (from: number) => ({ typeUrl: "/core.slashing.v1beta1.MsgUnjail", value: MsgUnjail.fromPartial({ validatorAddr: kit.valoper(from) }) });

  type Json = Record<string, any>;
  const validator = async (address: string): Promise<Json> =>
    (await kit.query("core.staking.v1beta1.Query.Validator", { validator_addr: address })).body.validator as Json;
  const delegation = async (from: number, address: string) =>
    kit.query("core.staking.v1beta1.Query.Delegation", { delegator_addr: kit.addresses[from], validator_addr: address });
  const pool = async () => (await kit.query("core.staking.v1beta1.Query.Pool")).body.pool as { bonded_tokens: string; not_bonded_tokens: string };
  const unbonding = async (from: number, address: string) =>
    kit.query("core.staking.v1beta1.Query.UnbondingDelegation", { delegator_addr: kit.addresses[from], validator_addr: address });

  /** A failed Msg: the code and log, only the fee charged, and the staking state as it was. */
  async function failsInBlock(from: number, msg: { typeUrl: string; value: unknown }, code: number, codespace: string, log: string) {
    const before = {
      balance: await kit.balance(kit.addresses[from]!),
      validators: await kit.query("core.staking.v1beta1.Query.Validators"),
      pool: await pool(),
    };
    const r = await kit.deliver(from, [msg]);
    expect(r.checkCode, r.checkLog).to.equal(0);
    expect([r.code, r.codespace, r.log]).to.deep.equal([code, codespace, log]);
    expect(await kit.balance(kit.addresses[from]!)).to.equal(before.balance - FEE);
    expect(await kit.query("core.staking.v1beta1.Query.Validators")).to.deep.equal(before.validators);
    expect(await pool()).to.deep.equal(before.pool);
  }

  async function refusedByCheck(from: number, msg: { typeUrl: string; value: unknown }, code: number, codespace: string, log: string) {
    const before = await kit.balance(kit.addresses[from]!);
    const r = await kit.deliver(from, [msg]);
    expect([r.checkCode, r.codespace, r.checkLog]).to.deep.equal([code, codespace, log]);
    expect(await kit.balance(kit.addresses[from]!)).to.equal(before);
  }

  describe("MsgDelegate", () => {
    it("delegates to a bonded validator: shares at the validator's rate, tokens into the bonded pool, the power follows", async () => {
      const [before, poolBefore, balanceBefore] = [await validator(valA), await pool(), await kit.balance(kit.addresses[4]!)];
      const amount = 2_000_000n;
      const r = await kit.deliver(4, [delegate(4, valA, amount)]);
      expect(r.code, r.log).to.equal(0);
      // SharesFromTokens: delegator shares × amount ÷ tokens, truncated
      const shares = (dec(before.delegator_shares) * amount) / BigInt(before.tokens);
      expect(attributesOf(r.events, "delegate")).to.deep.equal([{ validator: valA, amount: "2000000", new_shares: formatDec(shares) }]);
      expect(r.logEvents.find((e) => e.type === "message")!.attributes).to.deep.equal([
        { key: "action", value: "delegate" },
        { key: "module", value: "staking" },
        { key: "sender", value: kit.addresses[4] },
      ]);
      const after = await validator(valA);
      expect(BigInt(after.tokens)).to.equal(BigInt(before.tokens) + amount);
      expect(dec(after.delegator_shares)).to.equal(dec(before.delegator_shares) + shares);
      const d = (await delegation(4, valA)).body.delegation_response as Json;
      expect(dec(d.delegation.shares)).to.equal(shares);
      expect(BigInt((await pool()).bonded_tokens)).to.equal(BigInt(poolBefore.bonded_tokens) + amount);
      expect(await kit.balance(kit.addresses[4]!)).to.equal(balanceBefore - amount - FEE);
      // a delegation started at this height has no rewards yet
      expect(
        (await kit.query("core.distribution.v1beta1.Query.DelegationRewards", { delegator_address: kit.addresses[4], validator_address: valA })).body.rewards,
      ).to.deep.equal([]);
      // the validator set of the next block carries the new power
      const next = await kit.node.produceBlock();
      const a = next.validators.find((v) => v.pub_key.value === Buffer.from(kit.node.validatorKey.publicKey).toString("base64"))!;
      expect(BigInt(a.voting_power)).to.equal(BigInt(after.tokens) / 1_000_000n);
    });

    it("withdraws the rewards of an existing delegation before adding to it", async () => {
      await kit.block();
      const r = await kit.deliver(4, [delegate(4, valA, 1_000_000n)]);
      expect(r.code, r.log).to.equal(0);
      const transfers = attributesOf(r.logEvents, "transfer");
      expect(transfers).to.have.length(1);
      expect(transfers[0]!.recipient).to.equal(kit.addresses[4]);
      expect(transfers[0]!.sender).to.equal(kit.moduleAccount("distribution"));
      expect(BigInt(transfers[0]!.amount!.replace("uhub", "")) > 0n).to.equal(true);
    });

    it("fails for an unknown validator, another denom or more than the balance; refuses a zero amount", async () => {
      await failsInBlock(4, delegate(4, kit.valoper(5), 1000n), 4, "staking", "failed to execute message; message index: 0: validator does not exist");
      await failsInBlock(
        4,
        delegate(4, valA, 1000n, "ugold"),
        21,
        "staking",
        "failed to execute message; message index: 0: got ugold, expected uhub: invalid coin denomination",
      );
      // the balance in the message includes the rewards withdrawn just before (undone with the failed message)
      const before = await kit.balance(kit.addresses[4]!);
      const r = await kit.deliver(4, [delegate(4, valA, 10n ** 15n)]);
      expect([r.code, r.codespace]).to.deep.equal([5, "sdk"]);
      const [, have] =
        /^failed to execute message; message index: 0: failed to delegate; (\d+)uhub is smaller than 1000000000000000uhub: insufficient funds$/.exec(r.log)!;
      expect(BigInt(have!) > before - FEE).to.equal(true);
      expect(await kit.balance(kit.addresses[4]!)).to.equal(before - FEE);
      await refusedByCheck(4, delegate(4, valA, 0n), 18, "sdk", "invalid delegation amount: invalid request");
    });
  });

  describe("MsgUndelegate", () => {
    let completion: Date;
    let entryBalance: bigint;

    it("starts unbonding: shares leave the delegation, the tokens move to the not-bonded pool until the unbonding time", async () => {
      const [before, poolBefore, delegationBefore] = [await validator(valA), await pool(), (await delegation(4, valA)).body.delegation_response as Json];
      const r = await kit.deliver(4, [undelegate(4, valA, 1_000_000n)]);
      expect(r.code, r.log).to.equal(0);
      const after = await validator(valA);
      entryBalance = BigInt(before.tokens) - BigInt(after.tokens);
      const shares = (dec(before.delegator_shares) * 1_000_000n) / BigInt(before.tokens);
      expect(dec(((await delegation(4, valA)).body.delegation_response as Json).delegation.shares)).to.equal(dec(delegationBefore.delegation.shares) - shares);
      const ubd = (await unbonding(4, valA)).body.unbond as Json;
      expect(ubd.entries).to.have.length(1);
      expect(ubd.entries[0].balance).to.equal(entryBalance.toString());
      expect(ubd.entries[0].creation_height).to.equal(String(r.height));
      const blockTime = new Date((await kit.node.committed(r.height))!.block.block.header.time);
      completion = new Date(blockTime.getTime() + 21 * DAY);
      expect(ubd.entries[0].completion_time).to.equal(proto3JsonTime(completion));
      expect(attributesOf(r.events, "unbond")).to.deep.equal([{ validator: valA, amount: "1000000", completion_time: rfc3339Seconds(completion) }]);
      const p = await pool();
      expect(BigInt(p.bonded_tokens)).to.equal(BigInt(poolBefore.bonded_tokens) - entryBalance);
      expect(BigInt(p.not_bonded_tokens)).to.equal(BigInt(poolBefore.not_bonded_tokens) + entryBalance);
      expect(attributesOf(r.logEvents, "transfer")).to.deep.include({
        recipient: kit.moduleAccount("not_bonded_tokens_pool"),
        sender: kit.moduleAccount("bonded_tokens_pool"),
        amount: `${entryBalance}uhub`,
      });
    });

    it("fails for more than the delegation and without a delegation", async () => {
      await failsInBlock(4, undelegate(4, valA, 10n ** 12n), 30, "staking", "failed to execute message; message index: 0: invalid shares amount");
      await failsInBlock(
        4,
        undelegate(4, valB, 1000n),
        24,
        "staking",
        "failed to execute message; message index: 0: no delegation for (address, validator) tuple",
      );
      await refusedByCheck(4, undelegate(4, "", 1000n), 2, "staking", "empty validator address");
    });

    it("pays the coins back at the end of the block that reaches the completion time", async () => {
      const balance = await kit.balance(kit.addresses[4]!);
      const early = await kit.block(new Date(completion.getTime() - 1000));
      expect(attributesOf(early.endEvents, "complete_unbonding").filter((e) => e.delegator === kit.addresses[4])).to.deep.equal([]);
      const due = await kit.block(completion);
      expect(attributesOf(due.endEvents, "complete_unbonding").filter((e) => e.delegator === kit.addresses[4])).to.deep.equal([
        { amount: `${entryBalance}uhub`, validator: valA, delegator: kit.addresses[4]! },
      ]);
      expect(await kit.balance(kit.addresses[4]!)).to.equal(balance + entryBalance);
      expect((await unbonding(4, valA)).code).to.equal(22);
    });
  });

  describe("MsgBeginRedelegate", () => {
    it("moves stake from a bonded to an unbonded validator: tokens go to the not-bonded pool, a redelegation entry waits", async () => {
      const [src, dst, poolBefore] = [await validator(valA), await validator(valB), await pool()];
      const r = await kit.deliver(4, [redelegate(4, valA, valB, 500_000n)]);
      expect(r.code, r.log).to.equal(0);
      const moved = BigInt(src.tokens) - BigInt((await validator(valA)).tokens);
      expect(BigInt((await validator(valB)).tokens)).to.equal(BigInt(dst.tokens) + moved);
      const p = await pool();
      expect(BigInt(p.bonded_tokens)).to.equal(BigInt(poolBefore.bonded_tokens) - moved);
      expect(BigInt(p.not_bonded_tokens)).to.equal(BigInt(poolBefore.not_bonded_tokens) + moved);
      const red = (
        await kit.query("core.staking.v1beta1.Query.Redelegations", { delegator_addr: kit.addresses[4], src_validator_addr: valA, dst_validator_addr: valB })
      ).body.redelegation_responses as Json[];
      expect(red[0]!.entries).to.have.length(1);
      expect(red[0]!.entries[0].redelegation_entry.initial_balance).to.equal(moved.toString());
      expect(red[0]!.entries[0].balance).to.equal(moved.toString());
      const [event] = attributesOf(r.events, "redelegate");
      expect(event).to.include({ source_validator: valA, destination_validator: valB, amount: "500000" });
      expect(event!.completion_time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it("refuses a redelegation to the same validator and a transitive one", async () => {
      await failsInBlock(
        4,
        redelegate(4, valA, valA, 1000n),
        37,
        "staking",
        "failed to execute message; message index: 0: cannot redelegate to the same validator",
      );
      await failsInBlock(
        4,
        redelegate(4, valB, valA, 1000n),
        40,
        "staking",
        "failed to execute message; message index: 0: redelegation to this validator already in progress; first redelegation to this validator must complete before next redelegation",
      );
    });

    it("completes the redelegation at the end of the block that reaches its completion time", async () => {
      const query = () =>
        kit.query("core.staking.v1beta1.Query.Redelegations", { delegator_addr: kit.addresses[4], src_validator_addr: valA, dst_validator_addr: valB });
      const entry = ((await query()).body.redelegation_responses as Json[])[0]!.entries[0].redelegation_entry;
      const due = await kit.block(new Date(Date.parse(entry.completion_time)));
      expect(attributesOf(due.endEvents, "complete_redelegation").filter((e) => e.delegator === kit.addresses[4])).to.deep.equal([
        { amount: `${entry.initial_balance}uhub`, delegator: kit.addresses[4]!, source_validator: valA, destination_validator: valB },
      ]);
      expect((await query()).code).to.equal(22);
      // the delegation at the destination stays
      expect((await delegation(4, valB)).code).to.equal(0);
    });
  });

  describe("MsgCreateValidator", () => {
    it("refuses bad commissions and a value below the minimum self-delegation before execution", async () => {
      await refusedByCheck(
        3,
        createValidator(3, keyC, coin(5_000_000n), { rate: "300000000000000000" }),
        12,
        "staking",
        "commission cannot be more than the max rate",
      );
      await refusedByCheck(
        3,
        createValidator(3, keyC, coin(5_000_000n), { minSelf: "6000000" }),
        17,
        "staking",
        "validator's self delegation must be greater than their minimum self delegation",
      );
      await refusedByCheck(
        3,
        createValidator(3, keyC, coin(5_000_000n), { maxRate: "2000000000000000000", rate: "0" }),
        11,
        "staking",
        "commission cannot be more than 100%",
      );
    });

    it("fails for another denom, a taken consensus key or a taken operator", async () => {
      await failsInBlock(
        3,
        createValidator(3, keyC, coin(5_000_000n, "ugold")),
        21,
        "staking",
        "failed to execute message; message index: 0: got ugold, expected uhub: invalid coin denomination",
      );
      await failsInBlock(
        3,
        createValidator(3, kit.node.validatorKey.publicKey, coin(5_000_000n)),
        6,
        "staking",
        "failed to execute message; message index: 0: validator already exist for this pubkey; must use new validator pubkey",
      );
      await failsInBlock(
        0,
        createValidator(0, keyC, coin(5_000_000n)),
        5,
        "staking",
        "failed to execute message; message index: 0: validator already exist for this operator address; must use new validator operator address",
      );
    });

    it("creates a validator with its self-delegation; the end of the block bonds it; its signing and reward records start", async () => {
      const poolBefore = await pool();
      const r = await kit.deliver(3, [createValidator(3, keyC, coin(5_000_000n))]);
      expect(r.code, r.log).to.equal(0);
      expect(attributesOf(r.events, "create_validator")).to.deep.equal([{ validator: valC, amount: "5000000" }]);
      expect(attributesOf(r.events, "delegate")).to.deep.equal([]);
      const c = await validator(valC);
      expect(c).to.include({
        status: "BOND_STATUS_BONDED",
        tokens: "5000000",
        delegator_shares: "5000000.000000000000000000",
        min_self_delegation: "1000000",
        jailed: false,
      });
      expect(c.commission.commission_rates).to.deep.equal({
        rate: "0.100000000000000000",
        max_rate: "0.200000000000000000",
        max_change_rate: "0.010000000000000000",
      });
      // created unbonded (tokens in the not-bonded pool), bonded by the validator set update at the end of the block
      expect(attributesOf(r.endEvents, "transfer")).to.deep.equal([
        { recipient: kit.moduleAccount("bonded_tokens_pool"), sender: kit.moduleAccount("not_bonded_tokens_pool"), amount: "5000000uhub" },
      ]);
      expect(BigInt((await pool()).bonded_tokens)).to.equal(BigInt(poolBefore.bonded_tokens) + 5_000_000n);
      const consensus = encodeBech32Address(bech32Prefixes("hub").consensus, consensusAddressBytes(keyC));
      const info = (await kit.query("core.slashing.v1beta1.Query.SigningInfo", { cons_address: consensus })).body.val_signing_info as Json;
      expect(info).to.include({ address: consensus, start_height: String(r.height), index_offset: "0", missed_blocks_counter: "0", tombstoned: false });
      expect((await kit.query("core.distribution.v1beta1.Query.ValidatorOutstandingRewards", { validator_address: valC })).body).to.deep.equal({
        rewards: { rewards: [] },
      });
      // it is in the next block's validator set, and does not sign: the block after counts the miss
      const next = await kit.node.produceBlock();
      expect(next.validators.map((v) => v.voting_power)).to.include("5");
      const after = await kit.block();
      const missed = ((await kit.query("core.slashing.v1beta1.Query.SigningInfo", { cons_address: consensus }, after.height)).body.val_signing_info as Json)
        .missed_blocks_counter;
      expect(Number(missed)).to.be.greaterThan(0);
      expect(attributesOf(after.beginEvents, "liveness")).to.deep.equal([{ address: consensus, missed_blocks: missed, height: String(after.height) }]);
      expect(attributesOf(after.beginEvents, "rewards").map((e) => e.validator)).to.include(valC);
    });
  });

  describe("MsgEditValidator", () => {
    it("edits the description and the commission rate; emits the commission as the real YAML", async () => {
      const before = await validator(valA);
      const r = await kit.deliver(0, [edit(0, { moniker: "renamed-a", rate: "105000000000000000" })]);
      expect(r.code, r.log).to.equal(0);
      const after = await validator(valA);
      expect(after.description).to.deep.equal({ ...before.description, moniker: "renamed-a" });
      expect(after.commission.commission_rates.rate).to.equal("0.105000000000000000");
      const blockTime = new Date((await kit.node.committed(r.height))!.block.block.header.time);
      expect(after.commission.update_time).to.equal(proto3JsonTime(blockTime));
      const time = aminoJsonTime(blockTime); // the event's YAML writes Go's time.Time (RFC3339Nano)
      expect(attributesOf(r.events, "edit_validator")).to.deep.equal([
        {
          commission_rate: `commission_rates:\n  rate: "0.105000000000000000"\n  max_rate: "0.200000000000000000"\n  max_change_rate: "0.010000000000000000"\nupdate_time: ${time}\n`,
          min_self_delegation: "1",
        },
      ]);
    });

    it("refuses a second change within 24 hours, a change above the max change rate, a lower minimum self-delegation", async () => {
      await failsInBlock(
        0,
        edit(0, { rate: "100000000000000000" }),
        13,
        "staking",
        "failed to execute message; message index: 0: commission cannot be changed more than once in 24h",
      );
      await failsInBlock(
        2,
        edit(2, { rate: "70000000000000000" }),
        16,
        "staking",
        "failed to execute message; message index: 0: commission cannot be changed more than max change rate",
      );
      await failsInBlock(
        2,
        edit(2, { minSelf: "1" }),
        19,
        "staking",
        "failed to execute message; message index: 0: minimum self delegation cannot be decrease",
      );
      await refusedByCheck(
        0,
        { typeUrl: "/core.staking.v1beta1.MsgEditValidator", value: MsgEditValidator.fromPartial({ validatorAddress: valA }) },
        18,
        "sdk",
        "empty description: invalid request",
      );
    });
  });

  describe("MsgUnjail and the jailing of a low self-delegation", () => {
    it("refuses to unjail a validator that is not jailed, and a tombstoned one", async () => {
      await failsInBlock(0, unjail(0), 5, "slashing", "failed to execute message; message index: 0: validator not jailed; cannot be unjailed");
      await failsInBlock(2, unjail(2), 4, "slashing", "failed to execute message; message index: 0: validator still jailed; cannot be unjailed");
    });

    it("jails an operator whose self-delegation falls below its minimum; it leaves the set and begins unbonding", async () => {
      const r = await kit.deliver(3, [undelegate(3, valC, 4_500_000n)]);
      expect(r.code, r.log).to.equal(0);
      const c = await validator(valC);
      expect(c).to.include({ jailed: true, status: "BOND_STATUS_UNBONDING", tokens: "500000" });
      expect(c.unbonding_height).to.equal(String(r.height));
      const next = await kit.node.produceBlock();
      expect(next.validators).to.have.length(1);
      await failsInBlock(
        3,
        unjail(3),
        7,
        "slashing",
        "failed to execute message; message index: 0: 500000 less than 1000000: validator's self delegation less than minimum; cannot be unjailed",
      );
    });

    it("unjails it once the self-delegation is back above the minimum; the end of the block bonds it again", async () => {
      expect((await kit.deliver(3, [delegate(3, valC, 600_000n)])).code).to.equal(0);
      const r = await kit.deliver(3, [unjail(3)]);
      expect(r.code, r.log).to.equal(0);
      expect(r.logEvents.find((e) => e.type === "message")!.attributes).to.deep.equal([
        { key: "action", value: "unjail" },
        { key: "module", value: "slashing" },
        { key: "sender", value: valC },
      ]);
      expect(await validator(valC)).to.include({ jailed: false, status: "BOND_STATUS_BONDED", tokens: "1100000" });
    });
  });
});
