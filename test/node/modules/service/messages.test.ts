import { expect } from "chai";
import { attributesOf, decodeEvents, NodeTxKit, type Delivered } from "../../../helpers/nodeTxKit.js";
import { send } from "../../../helpers/txSigner.js";

type Json = Record<string, any>;
const failed = (log: string) => `failed to execute message; message index: 0: ${log}`;
const coins = (amount: number) => [{ denom: "uhub", amount: String(amount) }];
const SCHEMAS = JSON.stringify({ input: { type: "object" }, output: { type: "object" } });
const INPUT = JSON.stringify({ header: {}, body: { pair: "hub-usdt" } });
const OK = JSON.stringify({ code: 200, message: "" });

/**
 * The service Msgs and the EndBlock's request batches (irismod v1.3.1 modules/service) in blocks
 * of an in-process dev node. A dev chain has no provider daemons: a provider account responds.
 * Params of the dev genesis: min_deposit 5000uhub, min_deposit_multiple 1000, tax 0.05,
 * slash_fraction 0.001, max_request_timeout 100, refund after 5 + 15 days.
 */
describe("service Msgs and request batches", function () {
  // dev accounts 1 to 4 are providers of the dev genesis's price-feed (owners 1 and 3): fresh accounts here
  const [P1, P2, C] = [7, 8, 5];
  this.timeout(120_000);
  let kit: NodeTxKit;
  before(async () => {
    kit = await NodeTxKit.open(9);
  });
  after(() => kit.close());

  const msg = (name: string, value: Json) => ({ typeUrl: `/extmod.service.${name}`, value });
  const define = (from: number, name: string) =>
    msg("MsgDefineService", { name, description: "echo", tags: ["test"], author: kit.addresses[from], author_description: "", schemas: SCHEMAS });
  const bind = (name: string, provider: number, deposit: number, price = 100, qos = 2) =>
    msg("MsgBindService", {
      service_name: name,
      provider: kit.addresses[provider],
      deposit: coins(deposit),
      pricing: JSON.stringify({ price: `${price}uhub` }),
      qos: String(qos),
      options: "{}",
      owner: kit.addresses[provider],
    });
  const TIMEOUT = 10;
  const call = (name: string, consumer: number, providers: number[], extra: Json = {}) =>
    msg("MsgCallService", {
      service_name: name,
      providers: providers.map((p) => kit.addresses[p]),
      consumer: kit.addresses[consumer],
      input: INPUT,
      service_fee_cap: coins(1000),
      timeout: String(TIMEOUT),
      repeated: false,
      repeated_frequency: "0",
      repeated_total: "0",
      ...extra,
    });
  const respond = (requestId: string, provider: number, output = JSON.stringify({ header: {}, body: { rate: "1.5" } })) =>
    msg("MsgRespondService", { request_id: requestId, provider: kit.addresses[provider], result: OK, output });
  const query = async (method: string, request: Json) => kit.query(`extmod.service.Query.${method}`, request);
  const ok = (d: Delivered) => expect(d.code, d.log).to.equal(0);
  /**
   * Blocks until `height` is committed, and that block's end events. (The node may commit a block
   * of its own after a delivered tx, so heights are waited for, never counted.)
   */
  const blocksUntil = async (height: number) => {
    while (kit.height < height) await kit.block();
    return { height, endEvents: decodeEvents((await kit.node.committed(height))!.results.end_block_events) };
  };

  it("defines a service once, with the real refusals of a bad name and a second definition", async () => {
    const defined = await kit.deliver(1, [define(1, "echo")]);
    ok(defined);
    expect(attributesOf(defined.events, "create_definition")).to.deep.equal([{ service_name: "echo", author: kit.addresses[1] }]);
    expect(((await query("Definition", { service_name: "echo" })).body.service_definition as Json).author).to.equal(kit.addresses[1]);
    const again = await kit.deliver(1, [define(1, "echo")]);
    expect([again.codespace, again.code, again.log]).to.deep.equal(["service", 7, failed("echo: service definition already exists")]);
    const badName = await kit.deliver(1, [define(1, "1echo")]);
    expect([badName.codespace, badName.code]).to.deep.equal(["service", 2]);
    expect(badName.log).to.match(/^1echo: invalid service name/);
  });

  it("binds with at least the minimum deposit (max(price × 1000, 5000uhub)) held by the deposit account", async () => {
    const low = await kit.deliver(P1, [bind("echo", P1, 4000, 1)]);
    expect([low.codespace, low.code, low.log]).to.deep.equal([
      "service",
      8,
      failed("insufficient deposit: minimum deposit 5000uhub, 4000uhub got: invalid deposit"),
    ]);
    const priced = await kit.deliver(P1, [bind("echo", P1, 50_000, 100)]);
    expect([priced.code, priced.log]).to.deep.equal([8, failed("insufficient deposit: minimum deposit 100000uhub, 50000uhub got: invalid deposit")]);
    const depositBefore = await kit.balance(kit.moduleAccount("service_deposit_account"));
    ok(await kit.deliver(P1, [bind("echo", P1, 100_000, 100)]));
    expect((await kit.balance(kit.moduleAccount("service_deposit_account"))) - depositBefore).to.equal(100_000n);
    const binding = (await query("Binding", { service_name: "echo", provider: kit.addresses[P1] })).body.service_binding as Json;
    expect(binding).to.deep.include({ available: true, qos: "2", owner: kit.addresses[P1], deposit: coins(100_000) });
    const twice = await kit.deliver(P1, [bind("echo", P1, 100_000, 100)]);
    expect([twice.code, twice.log]).to.deep.equal([13, failed("service binding already exists")]);
    ok(await kit.deliver(P2, [bind("echo", P2, 200_000, 200, 1)]));
    const update = (extra: Json) =>
      msg("MsgUpdateServiceBinding", {
        service_name: "echo",
        provider: kit.addresses[P1],
        deposit: [],
        pricing: "",
        qos: "0",
        options: "",
        owner: kit.addresses[P1],
        ...extra,
      });
    const slow = await kit.deliver(P1, [update({ qos: "101" })]);
    expect([slow.codespace, slow.code, slow.log]).to.deep.equal([
      "service",
      11,
      failed("QoS [101] must not be greater than maximum request timeout [100]: invalid QoS"),
    ]);
    const notOwner = await kit.deliver(P2, [{ ...update({}), value: { ...update({}).value, owner: kit.addresses[P2] } }]);
    expect([notOwner.code, notOwner.log]).to.deep.equal([41, failed("owner not matching: not authorized")]);
    const pricing = JSON.stringify({ price: "100uhub", promotions_by_volume: [{ volume: 100, discount: "0.5" }] });
    const updated = await kit.deliver(P1, [update({ pricing, qos: "3" })]);
    ok(updated);
    expect(attributesOf(updated.events, "update_binding")).to.deep.equal([{ service_name: "echo", provider: kit.addresses[P1], owner: kit.addresses[P1] }]);
    expect((await query("Binding", { service_name: "echo", provider: kit.addresses[P1] })).body.service_binding).to.deep.include({ qos: "3", pricing });
    ok(await kit.deliver(P1, [update({ qos: "2" })]));
    const moduleService = await kit.deliver(P1, [bind("oracle-price", P1, 5000, 1)]);
    expect([moduleService.codespace, moduleService.code, moduleService.log]).to.deep.equal([
      "service",
      44,
      failed("module service oracle-price: can not bind module service"),
    ]);
  });

  it("calls a service: the EndBlock starts the batch, the consumer pays, the provider responds and earns the fee less tax", async () => {
    const consumerBefore = await kit.balance(kit.addresses[C]!);
    const called = await kit.deliver(C, [call("echo", C, [P1, P2])]);
    ok(called);
    const [created] = attributesOf(called.events, "create_context");
    const contextId = created!.request_context_id!;
    expect(contextId).to.match(/^[0-9A-F]{80}$/);
    const [batch] = attributesOf(called.endEvents, "new_batch");
    expect(JSON.parse(batch!.request_context_state!)).to.deep.equal({
      batch_counter: 1,
      state: 0,
      batch_response_threshold: 0,
      batch_request_count: 2,
      batch_response_count: 0,
    });
    const [newRequests] = attributesOf(called.endEvents, "new_batch_request");
    expect(JSON.parse(newRequests!.requests!)).to.have.length(2);
    // the fee of both requests (100 + 200) and the tx fee
    expect(consumerBefore - (await kit.balance(kit.addresses[C]!))).to.equal(300n + 2000n);
    const context = (await query("RequestContext", { request_context_id: contextId })).body.request_context as Json;
    expect(context).to.deep.include({ batch_counter: "1", state: "RUNNING", batch_state: "BATCH_RUNNING", batch_request_count: 2 });
    const requests = (await query("RequestsByReqCtx", { request_context_id: contextId, batch_counter: "1" })).body.requests as Json[];
    expect(requests.map((r) => [r.provider, r.service_fee])).to.deep.equal([
      [kit.addresses[P1], coins(100)],
      [kit.addresses[P2], coins(200)],
    ]);
    const pending = (await query("Requests", { service_name: "echo", provider: kit.addresses[P1] })).body.requests as Json[];
    expect(pending.map((r) => r.id)).to.deep.equal([requests[0]!.id]);

    const wrongProvider = await kit.deliver(P2, [respond(requests[0]!.id, P2)]);
    expect([wrongProvider.codespace, wrongProvider.code, wrongProvider.log]).to.deep.equal([
      "service",
      24,
      failed("provider does not match: invalid response"),
    ]);
    const responded = await kit.deliver(P1, [respond(requests[0]!.id, P1)]);
    ok(responded);
    expect(attributesOf(responded.events, "respond_service")).to.deep.equal([
      { request_context_id: contextId, request_id: requests[0]!.id, service_name: "echo", provider: kit.addresses[P1], consumer: kit.addresses[C] },
    ]);
    expect(((await query("Response", { request_id: requests[0]!.id })).body.response as Json).provider).to.equal(kit.addresses[P1]);
    // 100 less the tax truncated (100 × 0.05 = 5)
    expect((await query("EarnedFees", { provider: kit.addresses[P1] })).body.fees).to.deep.equal(coins(95));
    const again = await kit.deliver(P1, [respond(requests[0]!.id, P1)]);
    expect([again.code, again.log]).to.deep.equal([24, failed("request is not active: invalid response")]);

    // provider 3 never answers: at height + timeout its request expires, it is slashed 0.001 of its deposit and the consumer refunded
    const consumerAtExpiry = await kit.balance(kit.addresses[C]!);
    const expired = await blocksUntil(called.height + TIMEOUT);
    expect(attributesOf(expired.endEvents, "service_slash")).to.deep.equal([
      { request_id: requests[1]!.id, provider: kit.addresses[P2], slashed_coins: "200uhub" },
    ]);
    expect(attributesOf(expired.endEvents, "complete_context")).to.deep.equal([{ request_context_id: contextId }]);
    expect((await kit.balance(kit.addresses[C]!)) - consumerAtExpiry).to.equal(200n);
    expect((await query("RequestContext", { request_context_id: contextId })).code).to.not.equal(0);
    const slashedBinding = (await query("Binding", { service_name: "echo", provider: kit.addresses[P2] })).body.service_binding as Json;
    // 199800 is below the minimum deposit (200 × 1000): the binding becomes unavailable
    expect(slashedBinding).to.deep.include({ deposit: coins(199_800), available: false });
  });

  it("withdraws earned fees to the withdraw address, only for the provider's owner", async () => {
    const notOwner = await kit.deliver(P2, [msg("MsgWithdrawEarnedFees", { owner: kit.addresses[P2], provider: kit.addresses[P1] })]);
    expect([notOwner.codespace, notOwner.code, notOwner.log]).to.deep.equal(["service", 41, failed("owner not matching: not authorized")]);
    ok(await kit.deliver(P1, [msg("MsgSetWithdrawAddress", { owner: kit.addresses[P1], withdraw_address: kit.addresses[0] })]));
    expect((await query("WithdrawAddress", { owner: kit.addresses[P1] })).body.withdraw_address).to.equal(kit.addresses[0]);
    const before = await kit.balance(kit.addresses[0]!);
    ok(await kit.deliver(P1, [msg("MsgWithdrawEarnedFees", { owner: kit.addresses[P1], provider: kit.addresses[P1] })]));
    expect((await kit.balance(kit.addresses[0]!)) - before).to.equal(95n);
    expect((await query("EarnedFees", { provider: kit.addresses[P1] })).code).to.not.equal(0);
  });

  it("pauses a repeated context whose consumer cannot pay its batch (OnRequestContextPaused), with pause_context in the EndBlock", async () => {
    const POOR = 6;
    const balance = await kit.balance(kit.addresses[POOR]!);
    // two tx fees (this send and the call) and 50uhub are left: less than P1's price of 100
    ok(await kit.deliver(POOR, [send(kit.addresses[POOR]!, kit.addresses[0]!, String(balance - 4050n))]));
    expect(await kit.balance(kit.addresses[POOR]!)).to.equal(2050n);
    const called = await kit.deliver(POOR, [call("echo", POOR, [P1], { repeated: true, repeated_frequency: "12", repeated_total: "-1" })]);
    ok(called);
    const contextId = attributesOf(called.events, "create_context")[0]!.request_context_id!;
    expect(attributesOf(called.endEvents, "pause_context")).to.deep.equal([{ request_context_id: contextId }]);
    const context = (await query("RequestContext", { request_context_id: contextId })).body.request_context as Json;
    expect(context).to.deep.include({ state: "PAUSED", batch_state: "BATCH_COMPLETED", batch_counter: "0" });
    expect(await kit.balance(kit.addresses[POOR]!)).to.equal(50n);
  });

  it("runs a repeated context batch after batch every `frequency` blocks, paused, restarted, updated and killed by its consumer", async () => {
    const called = await kit.deliver(C, [call("echo", C, [P1], { repeated: true, repeated_frequency: "12", repeated_total: "-1" })]);
    ok(called);
    const contextId = attributesOf(called.events, "create_context")[0]!.request_context_id!;
    const requestsOf = async (batch: number) =>
      ((await query("RequestsByReqCtx", { request_context_id: contextId, batch_counter: String(batch) })).body.requests as Json[]) ?? [];
    ok(await kit.deliver(P1, [respond((await requestsOf(1))[0]!.id, P1)]));
    // the batch expires at called + timeout; the next one starts at called + frequency
    const second = await blocksUntil(called.height + 12);
    expect(attributesOf(second.endEvents, "new_batch").map((e) => e.request_context_id)).to.deep.equal([contextId]);
    expect(((await query("RequestContext", { request_context_id: contextId })).body.request_context as Json).batch_counter).to.equal("2");

    const nonRepeated = await kit.deliver(C, [call("echo", C, [P1])]);
    const onceId = attributesOf(nonRepeated.events, "create_context")[0]!.request_context_id!;
    const pauseOnce = await kit.deliver(C, [msg("MsgPauseRequestContext", { request_context_id: onceId, consumer: kit.addresses[C] })]);
    expect([pauseOnce.codespace, pauseOnce.code, pauseOnce.log]).to.deep.equal(["service", 30, failed("request context non repeated")]);
    const notConsumer = await kit.deliver(P1, [msg("MsgPauseRequestContext", { request_context_id: contextId, consumer: kit.addresses[P1] })]);
    expect([notConsumer.code, notConsumer.log]).to.deep.equal([41, failed("consumer not matching: not authorized")]);

    const paused = await kit.deliver(C, [msg("MsgPauseRequestContext", { request_context_id: contextId, consumer: kit.addresses[C] })]);
    ok(paused);
    expect(attributesOf(paused.events, "pause_context")).to.deep.equal([{ request_context_id: contextId, consumer: kit.addresses[C] }]);
    const pausedTwice = await kit.deliver(C, [msg("MsgPauseRequestContext", { request_context_id: contextId, consumer: kit.addresses[C] })]);
    expect([pausedTwice.code, pausedTwice.log]).to.deep.equal([31, failed("request context not running")]);
    const tooLong = await kit.deliver(C, [
      msg("MsgUpdateRequestContext", {
        request_context_id: contextId,
        providers: [],
        consumer: kit.addresses[C],
        service_fee_cap: [],
        timeout: "101",
        repeated_frequency: "200",
        repeated_total: "0",
      }),
    ]);
    expect([tooLong.code, tooLong.log]).to.deep.equal([20, failed("timeout [101] must not be greater than the max request timeout [100]: invalid timeout")]);
    ok(
      await kit.deliver(C, [
        msg("MsgUpdateRequestContext", {
          request_context_id: contextId,
          providers: [],
          consumer: kit.addresses[C],
          service_fee_cap: coins(500),
          timeout: "0",
          repeated_frequency: "16",
          repeated_total: "5",
        }),
      ]),
    );
    const updated = (await query("RequestContext", { request_context_id: contextId })).body.request_context as Json;
    expect(updated).to.deep.include({ state: "PAUSED", repeated_frequency: "16", repeated_total: "5", service_fee_cap: coins(500) });
    const started = await kit.deliver(C, [msg("MsgStartRequestContext", { request_context_id: contextId, consumer: kit.addresses[C] })]);
    ok(started);
    expect(((await query("RequestContext", { request_context_id: contextId })).body.request_context as Json).state).to.equal("RUNNING");
    const killed = await kit.deliver(C, [msg("MsgKillRequestContext", { request_context_id: contextId, consumer: kit.addresses[C] })]);
    ok(killed);
    expect(((await query("RequestContext", { request_context_id: contextId })).body.request_context as Json).state).to.equal("COMPLETED");
    // a completed context is deleted when its current batch expires
    let last = await kit.block();
    for (let i = 0; i < 2 * TIMEOUT && (await query("RequestContext", { request_context_id: contextId })).code === 0; i++) last = await kit.block();
    expect((await query("RequestContext", { request_context_id: contextId })).code, `deleted by height ${last.height}`).to.not.equal(0);
  });

  it("enables a binding the slashes disabled, disables it, refuses an early refund, and refunds the deposit after 20 days", async () => {
    const binding = async () => (await query("Binding", { service_name: "echo", provider: kit.addresses[P1] })).body.service_binding as Json;
    // the unanswered batches of the repeated context slashed P1 below its minimum deposit
    expect((await binding()).available).to.equal(false);
    const enable = msg("MsgEnableServiceBinding", { service_name: "echo", provider: kit.addresses[P1], deposit: coins(1000), owner: kit.addresses[P1] });
    const enabled = await kit.deliver(P1, [enable]);
    ok(enabled);
    expect(attributesOf(enabled.events, "enable_binding")).to.deep.equal([{ service_name: "echo", provider: kit.addresses[P1], owner: kit.addresses[P1] }]);
    const enabledTwice = await kit.deliver(P1, [enable]);
    expect([enabledTwice.code, enabledTwice.log]).to.deep.equal([16, failed("service binding available")]);
    const disable = msg("MsgDisableServiceBinding", { service_name: "echo", provider: kit.addresses[P1], owner: kit.addresses[P1] });
    const disabled = await kit.deliver(P1, [disable]);
    ok(disabled);
    const twice = await kit.deliver(P1, [disable]);
    expect([twice.code, twice.log]).to.deep.equal([15, failed("service binding unavailable")]);
    const refund = msg("MsgRefundServiceDeposit", { service_name: "echo", provider: kit.addresses[P1], owner: kit.addresses[P1] });
    const early = await kit.deliver(P1, [refund]);
    expect([early.codespace, early.code]).to.deep.equal(["service", 17]);
    expect(early.log).to.match(/^failed to execute message; message index: 0: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC: incorrect refund time$/);
    const deposit = BigInt(((await binding()).deposit as Json[])[0]!.amount);
    const disabledAt = new Date((await kit.node.committed(disabled.height))!.block.block.header.time);
    const owner = await kit.balance(kit.addresses[P1]!);
    // arbitration_time_limit (5 days) + complaint_retrospect (15 days) after it was disabled
    ok(await kit.deliver(P1, [refund], { time: new Date(disabledAt.getTime() + 20 * 86_400_000 + 1000) }));
    expect((await kit.balance(kit.addresses[P1]!)) - owner).to.equal(deposit - 2000n);
    expect((await binding()).deposit).to.deep.equal([]);
  });

  it("refuses Msgs that fail ValidateBasic with the real texts", async () => {
    const noProviders = await kit.deliver(C, [call("echo", C, [])]);
    expect([noProviders.codespace, noProviders.code, noProviders.log]).to.deep.equal(["sdk", 18, "providers missing: invalid request"]);
    const badInput = await kit.deliver(C, [{ ...call("echo", C, [P1]), value: { ...call("echo", C, [P1]).value, input: "{}" } }]);
    expect([badInput.codespace, badInput.code, badInput.log]).to.deep.equal(["service", 37, "invalid input: invalid request input"]);
    const badResult = await kit.deliver(P1, [
      msg("MsgRespondService", { request_id: "AB".repeat(58), provider: kit.addresses[P1], result: JSON.stringify({ code: 200 }), output: "{}" }),
    ]);
    expect([badResult.codespace, badResult.code, badResult.log]).to.deep.equal(["service", 39, "(root): message is required: invalid response result"]);
    const unknown = await kit.deliver(P1, [respond("AB".repeat(58), P1)]);
    expect([unknown.code, unknown.log]).to.deep.equal([26, failed(`${"AB".repeat(58)}: unknown request`)]);
  });
});
