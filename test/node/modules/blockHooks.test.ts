import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { MsgSend } from "cosmjs-types/cosmos/bank/v1beta1/tx";
import { MsgCreateValidator, MsgUndelegate } from "cosmjs-types/cosmos/staking/v1beta1/tx";
import { PubKey } from "cosmjs-types/cosmos/crypto/ed25519/keys";
import { formatDec, parseDec } from "../../../src/codec/decimal.js";
import { goTimeString } from "../../../src/node/modules/shared/goTime.js";
import { attributesOf, NodeTxKit } from "../../helpers/nodeTxKit.js";
import { proto3JsonTime } from "../../helpers/timeText.js";

const ONE = 10n ** 18n;
const DAY = 86_400_000;
type Json = Record<string, any>;
const uhubOf = (coins: unknown) => parseDec(String(((coins ?? []) as Array<{ denom: string; amount: string }>).find((c) => c.denom === "uhub")?.amount ?? "0"));
const decCoin = (amount: bigint) => `${formatDec(amount)}uhub`;

/** The begin and end blockers: mint, fee allocation, signing windows, historical info, validator maturity. */
describe("block hooks", function () {
  this.timeout(60_000);
  let kit: NodeTxKit;
  let valA: string;

  before(async () => {
    kit = await NodeTxKit.open(6);
    valA = kit.valoper(0);
  });
  after(() => kit.close());

  const supply = async (height: number) =>
    BigInt(((await kit.query("core.bank.v1beta1.Query.SupplyOf", { denom: "uhub" }, height)).body.amount as Json).amount);
  const blockTime = async (height: number) => new Date((await kit.node.committed(height))!.block.block.header.time);

  it("mints inflation × base ÷ blocks per year into the fee collector each block, and records the block time", async () => {
    const params = (await kit.query("hubmod.mint.Query.Params")).body.params as Json;
    // the dev genesis minter's inflation base: 2×10^15 uhub
    const perBlock = (parseDec(params.inflation) * 2_000_000_000_000_000n) / 6_311_520n / ONE;
    const { height, beginEvents } = await kit.block();
    expect(attributesOf(beginEvents, "mint")).to.deep.equal([
      { last_inflation_time: goTimeString(await blockTime(height - 1)), inflation_time: goTimeString(await blockTime(height)), mint_coin: perBlock.toString() },
    ]);
    expect(attributesOf(beginEvents, "transfer")[0]).to.deep.equal({
      recipient: kit.moduleAccount("fee_collector"),
      sender: kit.moduleAccount("mint"),
      amount: `${perBlock}uhub`,
    });
    expect(await supply(height)).to.equal((await supply(height - 1)) + perBlock);
    const account = (await kit.query("core.auth.v1beta1.Query.Account", { address: kit.moduleAccount("mint") })).body.account as Json;
    expect(account).to.include({ "@type": "/core.auth.v1beta1.ModuleAccount", name: "mint" });
    expect(account.permissions).to.deep.equal(["minter"]);
  });

  it("allocates the previous block's fees and inflation: proposer reward, commission, validator rewards, community tax", async () => {
    const send = {
      typeUrl: "/core.bank.v1beta1.MsgSend",
      value: MsgSend.fromPartial({ fromAddress: kit.addresses[4]!, toAddress: kit.addresses[5]!, amount: [{ denom: "uhub", amount: "1" }] }),
    };
    const tx = await kit.deliver(4, [send]);
    expect(tx.code, tx.log).to.equal(0);
    // the fee collector holds exactly the fees of its block
    expect(await kit.balance(kit.moduleAccount("fee_collector"), tx.height)).to.equal(2000n);
    const next = await kit.block();
    const height = next.height;
    const collected = (await kit.balance(kit.moduleAccount("fee_collector"), height - 1)) + BigInt(attributesOf(next.beginEvents, "mint")[0]!.mint_coin!);
    const sweep = attributesOf(next.beginEvents, "transfer")[1]!;
    expect(sweep).to.deep.equal({ recipient: kit.moduleAccount("distribution"), sender: kit.moduleAccount("fee_collector"), amount: `${collected}uhub` });
    const fees = collected * ONE;
    // every validator signed: proposer multiplier = base 1% + bonus 4%; community tax 2%; A has all the power
    const proposerReward = (fees * 5n) / 100n;
    const votersReward = (fees * 93n) / 100n;
    expect(attributesOf(next.beginEvents, "proposer_reward")).to.deep.equal([{ amount: decCoin(proposerReward), validator: valA }]);
    expect(attributesOf(next.beginEvents, "rewards")).to.deep.equal([
      { amount: decCoin(proposerReward), validator: valA },
      { amount: decCoin(votersReward), validator: valA },
    ]);
    const commissionOf = (reward: bigint) => (reward * 10n) / 100n; // rate 0.1, exact here
    expect(attributesOf(next.beginEvents, "commission")).to.deep.equal([
      { amount: decCoin(commissionOf(proposerReward)), validator: valA },
      { amount: decCoin(commissionOf(votersReward)), validator: valA },
    ]);
    const at = async (method: string, field: (body: Json) => unknown, h: number) =>
      uhubOf(field((await kit.query(method, method.includes("CommunityPool") ? {} : { validator_address: valA }, h)).body));
    const pool = (h: number) => at("core.distribution.v1beta1.Query.CommunityPool", (b) => b.pool, h);
    const outstanding = (h: number) => at("core.distribution.v1beta1.Query.ValidatorOutstandingRewards", (b) => b.rewards.rewards, h);
    const commission = (h: number) => at("core.distribution.v1beta1.Query.ValidatorCommission", (b) => b.commission.commission, h);
    expect((await pool(height)) - (await pool(height - 1))).to.equal(fees - proposerReward - votersReward);
    expect((await outstanding(height)) - (await outstanding(height - 1))).to.equal(proposerReward + votersReward);
    expect((await commission(height)) - (await commission(height - 1))).to.equal(commissionOf(proposerReward) + commissionOf(votersReward));
  });

  it("moves validator A's signing window one block per block; A signs, so nothing is missed", async () => {
    const info = async (height: number) => (await kit.query("core.slashing.v1beta1.Query.SigningInfos", {}, height)).body.info as Json[];
    const { height } = await kit.block();
    const [before, after] = [await info(height - 1), await info(height)];
    const a = (list: Json[]) => list.find((i) => i.index_offset !== "0")!;
    expect(BigInt(a(after).index_offset)).to.equal(BigInt(a(before).index_offset) + 1n);
    expect(a(after).missed_blocks_counter).to.equal(a(before).missed_blocks_counter);
    expect(attributesOf((await kit.block()).beginEvents, "liveness")).to.deep.equal([]);
  });

  it("stores the historical info of each height: its header and the last validator set", async () => {
    const { height, time } = await kit.block();
    const hist = (await kit.query("core.staking.v1beta1.Query.HistoricalInfo", { height }, height)).body.hist as Json;
    expect(hist.header).to.include({ chain_id: "devnet-1", height: String(height), time: proto3JsonTime(time) });
    expect(hist.valset.map((v: Json) => v.operator_address)).to.deep.equal([valA]);
    const previous = (await kit.node.committed(height - 1))!;
    expect(Buffer.from(hist.header.last_block_id.hash, "base64").toString("hex").toUpperCase()).to.equal(previous.block.block_id.hash);
    expect(Buffer.from(hist.header.app_hash, "base64").toString("hex").toUpperCase()).to.equal(previous.appHash);
  });

  it("unbonds a validator at the end of its unbonding period and removes it once it has no shares", async () => {
    const key = ed25519.getPublicKey(sha256(new TextEncoder().encode("validator-d")));
    const create = {
      typeUrl: "/core.staking.v1beta1.MsgCreateValidator",
      value: MsgCreateValidator.fromPartial({
        description: { moniker: "validator-d" },
        commission: { rate: "0", maxRate: "100000000000000000", maxChangeRate: "10000000000000000" },
        minSelfDelegation: "1000000",
        delegatorAddress: kit.addresses[3]!,
        validatorAddress: kit.valoper(3),
        pubkey: { typeUrl: "/core.crypto.ed25519.PubKey", value: PubKey.encode({ key }).finish() },
        value: { denom: "uhub", amount: "2000000" },
      }),
    };
    expect((await kit.deliver(3, [create])).code).to.equal(0);
    const leave = {
      typeUrl: "/core.staking.v1beta1.MsgUndelegate",
      value: MsgUndelegate.fromPartial({ delegatorAddress: kit.addresses[3]!, validatorAddress: kit.valoper(3), amount: { denom: "uhub", amount: "2000000" } }),
    };
    const r = await kit.deliver(3, [leave]);
    expect(r.code, r.log).to.equal(0);
    const validator = (await kit.query("core.staking.v1beta1.Query.Validator", { validator_addr: kit.valoper(3) })).body.validator as Json;
    expect(validator).to.include({ status: "BOND_STATUS_UNBONDING", jailed: true, tokens: "0", delegator_shares: "0.000000000000000000" });
    const due = new Date(Date.parse(validator.unbonding_time));
    const end = await kit.block(new Date(due.getTime() + DAY));
    expect((await kit.query("core.staking.v1beta1.Query.Validator", { validator_addr: kit.valoper(3) })).code).to.equal(22);
    expect(attributesOf(end.endEvents, "complete_unbonding")).to.deep.include({
      amount: "2000000uhub",
      validator: kit.valoper(3),
      delegator: kit.addresses[3]!,
    });
    expect((await kit.query("core.distribution.v1beta1.Query.ValidatorOutstandingRewards", { validator_address: kit.valoper(3) })).body).to.deep.equal({
      rewards: { rewards: [] },
    });
  });

  it("slashes and jails a validator that misses more than half of its signing window", async () => {
    const key = ed25519.getPublicKey(sha256(new TextEncoder().encode("validator-e")));
    const create = {
      typeUrl: "/core.staking.v1beta1.MsgCreateValidator",
      value: MsgCreateValidator.fromPartial({
        description: { moniker: "validator-e" },
        commission: { rate: "0", maxRate: "100000000000000000", maxChangeRate: "10000000000000000" },
        minSelfDelegation: "1",
        delegatorAddress: kit.addresses[5]!,
        validatorAddress: kit.valoper(5),
        pubkey: { typeUrl: "/core.crypto.ed25519.PubKey", value: PubKey.encode({ key }).finish() },
        value: { denom: "uhub", amount: "10000000" },
      }),
    };
    const created = await kit.deliver(5, [create]);
    expect(created.code, created.log).to.equal(0);
    // it is bonded at the end of its block; the next block's commit lacks its signature, and so on
    let slashed: { height: number; beginEvents: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> } | undefined;
    for (let i = 0; i < 110 && !slashed; i++) {
      const block = await kit.block();
      if (attributesOf(block.beginEvents, "slash").length > 0) slashed = block;
    }
    expect(slashed, "a slash within the window").to.not.equal(undefined);
    const consensus = (await kit.query("core.slashing.v1beta1.Query.SigningInfos")).body.info as Json[];
    const info = consensus.find((i) => i.start_height === String(created.height))!;
    expect(slashed!.height).to.equal(created.height + 101);
    expect(attributesOf(slashed!.beginEvents, "slash")).to.deep.equal([
      { address: info.address, power: "10", reason: "missing_signature", jailed: info.address },
    ]);
    expect(info).to.include({ missed_blocks_counter: "0", index_offset: "0" });
    expect(Date.parse(info.jailed_until) - (await blockTime(slashed!.height)).getTime()).to.equal(600_000);
    // 1% of its power at the infraction, burned from the bonded pool; jailed, it leaves the set at the end of the block
    const validator = (await kit.query("core.staking.v1beta1.Query.Validator", { validator_addr: kit.valoper(5) }, slashed!.height)).body.validator as Json;
    expect(validator).to.include({ tokens: "9900000", jailed: true, status: "BOND_STATUS_UNBONDING" });
    const minted = BigInt(attributesOf(slashed!.beginEvents, "mint")[0]!.mint_coin!);
    expect(await supply(slashed!.height)).to.equal((await supply(slashed!.height - 1)) + minted - 100_000n);
    const slashes = (
      await kit.query("core.distribution.v1beta1.Query.ValidatorSlashes", { validator_address: kit.valoper(5), starting_height: 0, ending_height: 1000 })
    ).body.slashes as Json[];
    expect(slashes.map((e) => e.fraction)).to.deep.equal(["0.010000000000000000"]);
  });
});
