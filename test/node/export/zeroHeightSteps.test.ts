import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { expect } from "chai";
import { moduleAddressBytes } from "../../../src/codec/addresses.js";
import { decodeBech32Address, encodeBech32Address } from "../../../src/codec/bech32.js";
import { Codec } from "../../../src/codec/codec.js";
import { exportGenesis, type ExportedGenesis } from "../../../src/node/export/genesisExport.js";
import { NODE_MODULES } from "../../../src/node/modules/index.js";
import { DEV_HTLC_HASH_LOCK } from "../../../src/node/modules/htlc/module.js";
import { encodeCoin } from "../../../src/node/modules/bank/coinValues.js";
import { balanceKey } from "../../../src/node/modules/bank/keys.js";
import { CacheLayer, type FullKeyReader } from "../../../src/node/store/cacheLayer.js";
import { ModuleReader, modulePrefix } from "../../../src/node/store/moduleStore.js";
import { DEPOSITS_PREFIX } from "../../../src/node/modules/gov/keys.js";
import { NodeTxKit } from "../../helpers/nodeTxKit.js";

const codec = new Codec();
const moduleKey = (module: string, key: Uint8Array) => Uint8Array.of(...modulePrefix(module), ...key);
type Json = Record<string, unknown>;
type Coins = Array<{ denom: string; amount: string }>;

/** An account's uhub in an exported bank genesis. */
function exportedBalance(doc: ExportedGenesis, address: string): bigint {
  const entry = (doc.app_state.bank as { balances: Array<{ address: string; coins: Coins }> }).balances.find((b) => b.address === address);
  return (entry?.coins ?? []).filter((c) => c.denom === "uhub").reduce((sum, c) => sum + BigInt(c.amount), 0n);
}

/**
 * --for-zero-height runs irismod's PrepForZeroHeightGenesis of htlc, random, oracle and service
 * after the SDK's steps, and asserts the registered invariants first (irishub app/export.go).
 */
describe("export --for-zero-height: irismod's steps and the crisis invariants", function () {
  this.timeout(120_000);
  let kit: NodeTxKit;
  let height: number;
  const expiredSecret = sha256(new TextEncoder().encode("zero-height expired htlc"));
  const expiredLock = bytesToHex(sha256(expiredSecret));

  const run = (state: FullKeyReader, forZeroHeight: boolean, at = height) =>
    exportGenesis({ state, height: at, forZeroHeight, facts: kit.node.genesis, chain: kit.node.chain, codec, modules: NODE_MODULES });

  before(async () => {
    kit = await NodeTxKit.open(6);
    const create = {
      typeUrl: "/extmod.htlc.MsgCreateHTLC",
      value: {
        sender: kit.addresses[5],
        to: kit.addresses[4],
        receiver_on_other_chain: "",
        amount: [{ denom: "uhub", amount: "7000" }],
        hash_lock: expiredLock,
        time_lock: "50",
        timestamp: "0",
      },
    };
    expect((await kit.deliver(5, [create])).code).to.equal(0);
    await kit.node.advanceBlocks(51); // the HTLC expires (time lock 50), before random's first pending height (101)
    height = kit.height;
    const state = (await kit.query("extmod.htlc.Query.HTLC", { hash_lock: expiredLock })).body.htlc as Json;
    expect(state.state).to.equal("HTLC_STATE_EXPIRED");
    expect(height).to.be.lessThan(101);
  });
  after(() => kit?.close());

  it("htlc: an open HTLC's expiration made relative to the height, an expired one refunded to its sender", async () => {
    const { doc } = await run(kit.node.store.reader(height), true);
    const pending = (doc.app_state.htlc as { pending_htlcs: Record<string, { expiration_height: string }> }).pending_htlcs;
    expect(Object.keys(pending)).to.deep.equal([DEV_HTLC_HASH_LOCK.toUpperCase()]);
    expect(pending[DEV_HTLC_HASH_LOCK.toUpperCase()]!.expiration_height).to.equal(String(25480 - height + 1));
    const htlcAccount = encodeBech32Address("hub", moduleAddressBytes("htlc"));
    expect(exportedBalance(doc, kit.addresses[5]!)).to.equal((await kit.balance(kit.addresses[5]!, height)) + 7000n);
    expect(exportedBalance(doc, htlcAccount)).to.equal((await kit.balance(htlcAccount, height)) - 7000n);
    // a plain export at the same height gives the same relative expiration (this node's new chain starts at 1)
    const plain = (await run(kit.node.store.reader(height), false)).doc;
    expect((plain.app_state.htlc as { pending_htlcs: unknown }).pending_htlcs).to.deep.equal(pending);
  });

  it("random: the pending requests move to their heights left; oracle and service: contexts paused, fees refunded", async () => {
    // at the first height, while the dev genesis' service requests are still active (they time out later)
    const early = 1;
    const state = kit.node.store.reader(early);
    const { doc } = await run(state, true, early);
    const random = doc.app_state.random as { pending_random_requests: Record<string, unknown> };
    expect(Object.keys(random.pending_random_requests).sort()).to.deep.equal([String(101 - early + 1), String(201 - early + 1)].sort());

    const oracle = doc.app_state.oracle as { entries: Array<{ feed: { feed_name: string }; state: string }> };
    expect(oracle.entries.map((e) => [e.feed.feed_name, e.state])).to.deep.include.members([
      ["hub-usdt", "PAUSED"],
      ["hub-btc", "PAUSED"],
    ]);
    const service = doc.app_state.service as { request_contexts: Record<string, Json>; requests?: unknown; earned_fees?: unknown };
    expect(Object.values(service.request_contexts).length).to.be.greaterThan(0);
    for (const context of Object.values(service.request_contexts)) {
      expect(context).to.include({ state: "PAUSED", batch_state: "BATCH_COMPLETED", batch_request_count: 0, batch_response_count: 0 });
    }
    expect(service.requests).to.deep.equal([]);
    expect(service.earned_fees).to.deep.equal([]);

    // the expected refunds, read from the raw store at the height: active requests' fees to their consumers,
    // earned fees to the address the real keeper pays (the key after the prefix: provider bytes and denom)
    const raw = new ModuleReader(state, "service");
    const consumerRefund = new Map<string, bigint>();
    let refunded = 0n;
    for await (const [requestId] of raw.iterate(Uint8Array.of(0x15))) {
      const request = codec.type("extmod.service.CompactRequest").decode((await raw.get(Uint8Array.of(0x13, ...requestId)))!) as unknown as Json;
      const contextId = Buffer.from(String(request.request_context_id), "hex");
      const context = codec.type("extmod.service.RequestContext").decode((await raw.get(Uint8Array.of(0x08, ...contextId)))!) as unknown as Json;
      const fee = ((request.service_fee ?? []) as Coins).reduce((sum, c) => sum + BigInt(c.amount), 0n);
      consumerRefund.set(String(context.consumer), (consumerRefund.get(String(context.consumer)) ?? 0n) + fee);
      refunded += fee;
    }
    expect(refunded > 0n, "active requests").to.equal(true);
    // (a consumer that also delegates gets its rewards too, withdrawn by the SDK's step: at least the fee)
    for (const [consumer, fee] of consumerRefund) expect(exportedBalance(doc, consumer) - (await kit.balance(consumer, early)) >= fee, consumer).to.equal(true);
    let earned = 0n;
    for await (const [key, value] of raw.iterate(Uint8Array.of(0x18))) {
      const coin = codec.type("core.base.v1beta1.Coin").decode(value) as unknown as { amount: string };
      // v0.41's balance keys carry no address length, and the export reads the first 20 bytes as the
      // address (as the real AddressFromBalancesStore does): the payment shows under the provider
      const provider = encodeBech32Address("hub", key.subarray(0, 20));
      expect(exportedBalance(doc, provider) - (await kit.balance(provider, early)) >= BigInt(coin.amount), provider).to.equal(true);
      earned += BigInt(coin.amount);
    }
    expect(earned > 0n, "earned fees").to.equal(true);
    const requestAccount = encodeBech32Address("hub", moduleAddressBytes("service_request_account"));
    expect(exportedBalance(doc, requestAccount)).to.equal((await kit.balance(requestAccount, early)) - refunded - earned);
    // coins moved, none made: the supply is the sum of the exported balances
    const supply = (doc.app_state.bank as { supply: Coins }).supply.find((c) => c.denom === "uhub")!.amount;
    const sum = (doc.app_state.bank as { balances: Array<{ address: string }> }).balances.reduce((total, b) => total + exportedBalance(doc, b.address), 0n);
    expect(sum.toString()).to.equal(supply);
  });

  it("a broken invariant refuses the export with the crisis module's message", async () => {
    // one more uhub written straight into an account's balance: bank's total-supply invariant breaks
    const layer = new CacheLayer(kit.node.store.reader(height));
    const account = decodeBech32Address(kit.addresses[4]!, "hub", "address");
    const before = await kit.balance(kit.addresses[4]!, height);
    layer.set(moduleKey("bank", balanceKey(account, "uhub")), encodeCoin({ denom: "uhub", amount: before + 1n }));
    const error = await run(layer, true).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).to.match(/^invariant broken: bank: total supply invariant\n\tsum of accounts coins: \S+\n\tsupply\.Total: {10}\S+\n\n\n/);
    const [, sum, total] = /sum of accounts coins: \S*?(\d+)uhub[\s\S]*supply\.Total: +\S*?(\d+)uhub/.exec(error!.message)!;
    expect(BigInt(sum!) - BigInt(total!)).to.equal(1n);
    expect(error!.message).to.match(/\n\tCRITICAL please submit the following transaction:\n\t\t tx crisis invariant-broken bank total-supply$/);
    // a plain export does not assert them
    expect((await run(layer, false)).doc.chain_id).to.equal(kit.node.chain.chainId);
  });

  it("deposits gone from the gov store (the coins still held) refuse the export with gov's message", async () => {
    const state = kit.node.store.reader(height);
    const layer = new CacheLayer(state);
    let deposits = 0;
    for await (const [key] of new ModuleReader(state, "gov").iterate(DEPOSITS_PREFIX)) {
      layer.delete(moduleKey("gov", Uint8Array.of(...DEPOSITS_PREFIX, ...key)));
      deposits++;
    }
    expect(deposits).to.be.greaterThan(0);
    const error = await run(layer, true).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).to.match(/^invariant broken: gov: deposits invariant\n\tgov ModuleAccount coins: \d+uhub\n\tsum of deposit amounts: {2}\n\n/);
    expect(error!.message).to.match(/tx crisis invariant-broken gov module-account$/);
  });
});
