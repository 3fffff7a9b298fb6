import { expect } from "chai";
import fc from "fast-check";
import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { MsgBeginRedelegate, MsgCreateValidator, MsgDelegate, MsgUndelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { PubKey } from "cosmjs-types/cosmos/crypto/ed25519/keys";
import { decodeBech32Address, encodeBech32Address } from "../../../src/codec/bech32.js";
import { concatBytes } from "../../../src/node/store/keyEncoding.js";
import { modulePrefix } from "../../../src/node/store/moduleStore.js";
import { DELEGATION_PREFIX, REDELEGATION_PREFIX, UNBONDING_PREFIX, splitAddresses } from "../../../src/node/modules/staking/keys.js";
import { delegationsByValidatorPrefix, INDEX_STORE } from "../../../src/node/indexes/indexKeys.js";
import { NodeTxKit } from "../../helpers/nodeTxKit.js";

type Json = Record<string, any>;
const STAKING = modulePrefix("staking");
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/**
 * The index's answers equal the full scan's: over random histories of
 * delegations, undelegations and redelegations (to a validator slashed and
 * jailed for downtime among others), a validator's delegations read through
 * the index — every page by key, the totals, at the latest and at an earlier
 * kept height — are the state's delegations of that validator in scan order,
 * and the index holds exactly their entries. Unbondings and redelegations by
 * validator are read through the state's own v0.41 indexes: checked the same way.
 */
describe("derived index: a validator's delegations equal the full scan's", function () {
  this.timeout(600_000);
  let kit: NodeTxKit;
  let validators: string[];
  const DELEGATORS = [1, 4, 5];

  const msg = {
    delegate: (from: number, validator: string, amount: number) => ({
      typeUrl: "/core.staking.v1beta1.MsgDelegate",
      value: MsgDelegate.fromPartial({
        delegatorAddress: kit.addresses[from]!,
        validatorAddress: validator,
        amount: { denom: "uhub", amount: String(amount) },
      }),
    }),
    undelegate: (from: number, validator: string, amount: number) => ({
      typeUrl: "/core.staking.v1beta1.MsgUndelegate",
      value: MsgUndelegate.fromPartial({
        delegatorAddress: kit.addresses[from]!,
        validatorAddress: validator,
        amount: { denom: "uhub", amount: String(amount) },
      }),
    }),
    redelegate: (from: number, src: string, dst: string, amount: number) => ({
      typeUrl: "/core.staking.v1beta1.MsgBeginRedelegate",
      value: MsgBeginRedelegate.fromPartial({
        delegatorAddress: kit.addresses[from]!,
        validatorSrcAddress: src,
        validatorDstAddress: dst,
        amount: { denom: "uhub", amount: String(amount) },
      }),
    }),
  };

  before(async () => {
    kit = await NodeTxKit.open(6);
    const key = ed25519.getPublicKey(sha256(new TextEncoder().encode("validator-c")));
    const created = await kit.deliver(3, [
      {
        typeUrl: "/core.staking.v1beta1.MsgCreateValidator",
        value: MsgCreateValidator.fromPartial({
          description: { moniker: "validator-c" },
          commission: { rate: "100000000000000000", maxRate: "200000000000000000", maxChangeRate: "10000000000000000" },
          minSelfDelegation: "1000000",
          delegatorAddress: kit.addresses[3]!,
          validatorAddress: kit.valoper(3),
          pubkey: { typeUrl: "/core.crypto.ed25519.PubKey", value: PubKey.encode({ key }).finish() },
          value: { denom: "uhub", amount: "5000000" },
        }),
      },
    ]);
    expect(created.code, created.log).to.equal(0);
    validators = [kit.valoper(0), kit.valoper(2), kit.valoper(3)];
    for (const from of DELEGATORS) expect((await kit.deliver(from, [msg.delegate(from, validators[2]!, 1_000_000)])).code).to.equal(0);
    // validator C never signs: past the signing window it is slashed for downtime and jailed
    const tokensBefore = BigInt(
      ((await kit.query("core.staking.v1beta1.Query.Validator", { validator_addr: validators[2] })).body.validator as Json).tokens as string,
    );
    for (let i = 0; i < 110; i++) await kit.block();
    const after = (await kit.query("core.staking.v1beta1.Query.Validator", { validator_addr: validators[2] })).body.validator as Json;
    expect(after.jailed).to.equal(true);
    expect(BigInt(after.tokens) < tokensBefore, "slashed").to.equal(true);
  });
  after(() => kit.close());

  /** The state's entries under a staking prefix at a height, in key order (the full scan). */
  async function scan(prefix: Uint8Array, height: number): Promise<Array<[Uint8Array, Uint8Array]>> {
    const entries: Array<[Uint8Array, Uint8Array]> = [];
    const full = concatBytes(STAKING, prefix);
    for await (const [key, value] of kit.node.store.reader(height).iterate(full)) entries.push([key.subarray(STAKING.length), value]);
    return entries;
  }

  async function indexEntries(validator: Uint8Array, height: number): Promise<string[]> {
    const keys: string[] = [];
    const full = concatBytes(modulePrefix(INDEX_STORE), delegationsByValidatorPrefix(validator));
    for await (const [key] of kit.node.store.reader(height).iterate(full)) keys.push(hex(key.subarray(full.length)));
    return keys;
  }

  async function checkAt(height: number): Promise<void> {
    const delegationType = kit.node.codec.type("core.staking.v1beta1.Delegation");
    const all = await scan(DELEGATION_PREFIX, height);
    for (const valoper of validators) {
      const operator = decodeBech32Address(valoper, "hubvaloper", "validator");
      const mine = all.filter(([key]) => hex(splitAddresses(key.subarray(1))[1]!) === hex(operator));
      // the index holds exactly this validator's delegators
      expect(await indexEntries(operator, height)).to.deep.equal(mine.map(([key]) => hex(splitAddresses(key.subarray(1))[0]!)));
      const expected = mine.map(([, value]) => kit.node.codec.renderer.render(delegationType, delegationType.decode(value)));
      // every page by key, as a client walks them, with v0.41's next_key bytes
      for (const limit of [1, 2, 100]) {
        const walked: Json[] = [];
        let key: string | undefined;
        let pages = 0;
        do {
          const r = await kit.query("core.staking.v1beta1.Query.ValidatorDelegations", { validator_addr: valoper, pagination: { limit, key } }, height);
          expect(r.code, r.log).to.equal(0);
          walked.push(...(r.body.delegation_responses as Json[]).map((d) => d.delegation));
          const next = (r.body.pagination as Json).next_key as string | null;
          const firstOfNext = mine[walked.length];
          expect(next ?? undefined).to.equal(firstOfNext ? b64(firstOfNext[0].subarray(1)) : undefined);
          key = next ?? undefined;
        } while (key && ++pages < 1000);
        expect(walked).to.deep.equal(expected);
      }
      const counted = await kit.query(
        "core.staking.v1beta1.Query.ValidatorDelegations",
        { validator_addr: valoper, pagination: { limit: 1, count_total: true } },
        height,
      );
      expect((counted.body.pagination as Json).total).to.equal(String(mine.length));
      // unbondings and redelegations by validator: the state's own indexes against the full scans
      const unbondings = (await scan(UNBONDING_PREFIX, height)).filter(([key]) => hex(splitAddresses(key.subarray(1))[1]!) === hex(operator));
      const ubd = await kit.query(
        "core.staking.v1beta1.Query.ValidatorUnbondingDelegations",
        { validator_addr: valoper, pagination: { count_total: true } },
        height,
      );
      expect((ubd.body.unbonding_responses as Json[]).map((u) => u.delegator_address)).to.have.members(
        unbondings.map(([key]) => encodeBech32Address("hub", splitAddresses(key.subarray(1))[0]!)),
      );
      const redelegations = (await scan(REDELEGATION_PREFIX, height)).filter(([key]) => hex(splitAddresses(key.subarray(1))[1]!) === hex(operator));
      const red = await kit.query("core.staking.v1beta1.Query.Redelegations", { src_validator_addr: valoper, pagination: { count_total: true } }, height);
      expect((red.body.redelegation_responses as Json[]).length).to.equal(redelegations.length);
    }
  }

  const op = fc.oneof(
    fc.record({ kind: fc.constant("delegate" as const), from: fc.constantFrom(...DELEGATORS), to: fc.nat(2), amount: fc.integer({ min: 1, max: 3_000_000 }) }),
    fc.record({
      kind: fc.constant("undelegate" as const),
      from: fc.constantFrom(...DELEGATORS),
      to: fc.nat(2),
      amount: fc.integer({ min: 1, max: 3_000_000 }),
    }),
    fc.record({
      kind: fc.constant("redelegate" as const),
      from: fc.constantFrom(...DELEGATORS),
      to: fc.nat(2),
      dst: fc.nat(2),
      amount: fc.integer({ min: 1, max: 3_000_000 }),
    }),
    fc.record({ kind: fc.constant("blocks" as const), n: fc.integer({ min: 1, max: 3 }) }),
  );

  it("over random histories, at the latest and an earlier kept height", async () => {
    let checks = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 16 }), fc.nat(), async (ops, pick) => {
        const start = kit.node.height;
        for (const o of ops) {
          if (o.kind === "blocks") for (let i = 0; i < o.n; i++) await kit.block();
          else if (o.kind === "delegate") await kit.deliver(o.from, [msg.delegate(o.from, validators[o.to]!, o.amount)]);
          else if (o.kind === "undelegate") await kit.deliver(o.from, [msg.undelegate(o.from, validators[o.to]!, o.amount)]);
          else await kit.deliver(o.from, [msg.redelegate(o.from, validators[o.to]!, validators[o.dst]!, o.amount)]);
        }
        await checkAt(kit.node.height);
        await checkAt(start + (pick % (kit.node.height - start + 1)));
        checks++;
      }),
      { numRuns: 25 },
    );
    expect(checks).to.equal(25);
  });
});
