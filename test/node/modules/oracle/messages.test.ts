import { expect } from "chai";
import { attributesOf, NodeTxKit, type Delivered } from "../../../helpers/nodeTxKit.js";

type Json = Record<string, any>;
const failed = (log: string) => `failed to execute message; message index: 0: ${log}`;
const coins = (amount: number) => [{ denom: "uhub", amount: String(amount) }];
const OK = JSON.stringify({ code: 200, message: "" });

/**
 * The oracle Msgs (irismod v1.3.1 modules/oracle) in blocks of an in-process dev node: a feed is a
 * paused repeated request context of the service module; once started, each completed batch gives it
 * the aggregate of its responses. Providers here are dev accounts that answer as a provider would.
 */
describe("oracle Msgs and feed values", function () {
  this.timeout(120_000);
  let kit: NodeTxKit;
  // account 0 is the dev chain's genesis guardian super, the only one who may create feeds
  const [SUPER, P1, P2, OTHER] = [0, 6, 7, 5];
  before(async () => {
    kit = await NodeTxKit.open(8);
    const schemas = JSON.stringify({ input: { type: "object" }, output: { type: "object" } });
    const ok = (d: Delivered) => expect(d.code, d.log).to.equal(0);
    ok(
      await kit.deliver(SUPER, [
        msg("service", "MsgDefineService", { name: "quote", description: "", tags: [], author: kit.addresses[SUPER], author_description: "", schemas }),
      ]),
    );
    for (const p of [P1, P2]) {
      const binding = {
        service_name: "quote",
        provider: kit.addresses[p],
        deposit: coins(5000),
        pricing: JSON.stringify({ price: "1uhub" }),
        qos: "1",
        options: "{}",
        owner: kit.addresses[p],
      };
      ok(await kit.deliver(p, [msg("service", "MsgBindService", binding)]));
    }
  });
  after(() => kit.close());

  const msg = (module: string, name: string, value: Json) => ({ typeUrl: `/extmod.${module}.${name}`, value });
  const createFeed = (creator: number, extra: Json = {}) =>
    msg("oracle", "MsgCreateFeed", {
      feed_name: "quote-usd",
      latest_history: "2",
      description: "the quote in USD",
      creator: kit.addresses[creator],
      service_name: "quote",
      providers: [kit.addresses[P1], kit.addresses[P2]],
      input: JSON.stringify({ header: {}, body: { pair: "quote-usd" } }),
      timeout: "5",
      service_fee_cap: coins(10),
      repeated_frequency: "8",
      aggregate_func: "avg",
      value_json_path: "price",
      response_threshold: 2,
      ...extra,
    });
  const feedMsg = (name: string, creator: number) => msg("oracle", name, { feed_name: "quote-usd", creator: kit.addresses[creator] });
  const feed = async () => (await kit.query("extmod.oracle.Query.Feed", { feed_name: "quote-usd" })).body.feed as Json;
  const ok = (d: Delivered) => expect(d.code, d.log).to.equal(0);
  let contextId = "";

  it("creates a feed, only by a guardian super, as a paused repeated context of the oracle module", async () => {
    const notSuper = await kit.deliver(OTHER, [createFeed(OTHER)]);
    expect([notSuper.codespace, notSuper.checkCode, notSuper.log]).to.deep.equal(["oracle", 5, `${kit.addresses[OTHER]}: unauthorized owner`]);
    const badFunc = await kit.deliver(SUPER, [createFeed(SUPER, { aggregate_func: "median" })]);
    expect([badFunc.codespace, badFunc.code, badFunc.log]).to.deep.equal(["oracle", 8, "median: method don't register"]);
    const created = await kit.deliver(SUPER, [createFeed(SUPER)]);
    ok(created);
    expect(attributesOf(created.events, "create_feed")).to.deep.equal([{ feed_name: "quote-usd", service_name: "quote", creator: kit.addresses[SUPER] }]);
    const stored = await feed();
    contextId = stored.feed.request_context_id;
    expect(stored).to.deep.include({ state: "PAUSED", repeated_frequency: "8", response_threshold: 2 });
    const context = (await kit.query("extmod.service.Query.RequestContext", { request_context_id: contextId })).body.request_context as Json;
    expect(context).to.deep.include({ module_name: "oracle", repeated: true, repeated_total: "-1", state: "PAUSED", consumer: kit.addresses[SUPER] });
    const paused = (await kit.query("extmod.oracle.Query.Feeds", { state: "PAUSED" })).body.feeds as Json[];
    expect(paused.map((f) => f.feed.feed_name)).to.include("quote-usd");
    const twice = await kit.deliver(SUPER, [createFeed(SUPER)]);
    expect([twice.codespace, twice.code, twice.log]).to.deep.equal(["oracle", 4, failed("quote-usd: feed already exists")]);
  });

  it("starts the feed: its batch's responses, aggregated by avg of body.price, become the feed's value", async () => {
    const started = await kit.deliver(SUPER, [feedMsg("MsgStartFeed", SUPER)]);
    ok(started);
    expect(attributesOf(started.endEvents, "new_batch").map((e) => e.request_context_id)).to.deep.equal([contextId]);
    expect((await feed()).state).to.equal("RUNNING");
    const again = await kit.deliver(SUPER, [feedMsg("MsgStartFeed", SUPER)]);
    expect([again.codespace, again.code, again.log]).to.deep.equal(["oracle", 9, failed("quote-usd: invalid state feed")]);
    const requests = (await kit.query("extmod.service.Query.RequestsByReqCtx", { request_context_id: contextId, batch_counter: "1" })).body.requests as Json[];
    expect(requests.map((r) => r.provider)).to.deep.equal([kit.addresses[P1], kit.addresses[P2]]);
    const respond = (request: Json, provider: number, price: unknown) =>
      msg("service", "MsgRespondService", {
        request_id: request.id,
        provider: kit.addresses[provider],
        result: OK,
        output: JSON.stringify({ header: {}, body: { price } }),
      });
    ok(await kit.deliver(P1, [respond(requests[0]!, P1, "2")]));
    const second = await kit.deliver(P2, [respond(requests[1]!, P2, 3)]);
    ok(second);
    const [value] = attributesOf(second.events, "set_feed_value");
    expect(value!.feed_name).to.equal("quote-usd");
    expect(JSON.parse(value!.feed_value!).data).to.equal("2.50000000");
    const values = (await kit.query("extmod.oracle.Query.FeedValue", { feed_name: "quote-usd" })).body.feed_values as Json[];
    expect(values.map((v) => v.data)).to.deep.equal(["2.50000000"]);
  });

  it("edits and pauses the feed, only by its creator", async () => {
    const notCreator = await kit.deliver(OTHER, [
      msg("oracle", "MsgEditFeed", {
        feed_name: "quote-usd",
        description: "x",
        latest_history: "1",
        providers: [],
        timeout: "0",
        service_fee_cap: [],
        repeated_frequency: "0",
        response_threshold: 0,
        creator: kit.addresses[OTHER],
      }),
    ]);
    expect([notCreator.codespace, notCreator.code, notCreator.log]).to.deep.equal(["oracle", 5, failed(`${kit.addresses[OTHER]}: unauthorized owner`)]);
    // the service module's rules for the feed's context: a longer timeout than the current frequency is refused there
    const slower = await kit.deliver(SUPER, [
      msg("oracle", "MsgEditFeed", {
        feed_name: "quote-usd",
        description: "do-not-modify",
        latest_history: "0",
        providers: [],
        timeout: "50",
        service_fee_cap: [],
        repeated_frequency: "0",
        response_threshold: 0,
        creator: kit.addresses[SUPER],
      }),
    ]);
    expect([slower.codespace, slower.code, slower.log]).to.deep.equal([
      "service",
      21,
      failed("repeated frequency [8] must not be less than the timeout [5]: invalid repeated frequency"),
    ]);
    ok(
      await kit.deliver(SUPER, [
        msg("oracle", "MsgEditFeed", {
          feed_name: "quote-usd",
          description: "do-not-modify",
          latest_history: "1",
          providers: [],
          timeout: "0",
          service_fee_cap: coins(20),
          repeated_frequency: "10",
          response_threshold: 1,
          creator: kit.addresses[SUPER],
        }),
      ]),
    );
    const edited = await feed();
    expect(edited.feed).to.deep.include({ description: "the quote in USD", latest_history: "1" });
    expect(edited).to.deep.include({ repeated_frequency: "10", response_threshold: 1, service_fee_cap: coins(20) });
    const paused = await kit.deliver(SUPER, [feedMsg("MsgPauseFeed", SUPER)]);
    ok(paused);
    expect(attributesOf(paused.events, "pause_feed")).to.deep.equal([{ feed_name: "quote-usd", creator: kit.addresses[SUPER] }]);
    expect((await feed()).state).to.equal("PAUSED");
    const pausedTwice = await kit.deliver(SUPER, [feedMsg("MsgPauseFeed", SUPER)]);
    expect([pausedTwice.code, pausedTwice.log]).to.deep.equal([9, failed("quote-usd: invalid state feed")]);
  });

  it("answers the service module's exchange rates as the oracle-price module service: a price in ucat is worth the ucat-uhub feed's value", async () => {
    const bind = (price: string) =>
      msg("service", "MsgBindService", {
        service_name: "quote",
        provider: kit.addresses[OTHER],
        deposit: coins(5000),
        pricing: JSON.stringify({ price }),
        qos: "1",
        options: "{}",
        owner: kit.addresses[OTHER],
      });
    const noFeed = await kit.deliver(OTHER, [bind("1ucat")]);
    expect([noFeed.codespace, noFeed.code, noFeed.log]).to.deep.equal([
      "service",
      9,
      failed("feed not found: invalid module service: invalid minimum deposit"),
    ]);
    ok(await kit.deliver(SUPER, [createFeed(SUPER, { feed_name: "ucat-uhub", providers: [kit.addresses[P1]], response_threshold: 1 })]));
    ok(await kit.deliver(SUPER, [{ ...feedMsg("MsgStartFeed", SUPER), value: { feed_name: "ucat-uhub", creator: kit.addresses[SUPER] } }]));
    const rateContext = ((await kit.query("extmod.oracle.Query.Feed", { feed_name: "ucat-uhub" })).body.feed as Json).feed.request_context_id;
    const [request] = (await kit.query("extmod.service.Query.RequestsByReqCtx", { request_context_id: rateContext, batch_counter: "1" })).body
      .requests as Json[];
    const output = JSON.stringify({ header: {}, body: { price: "0.5" } });
    ok(await kit.deliver(P1, [msg("service", "MsgRespondService", { request_id: request!.id, provider: kit.addresses[P1], result: OK, output })]));
    // 20000ucat × 0.5 = 10000uhub, × min_deposit_multiple 1000
    const dear = await kit.deliver(OTHER, [bind("20000ucat")]);
    expect([dear.code, dear.log]).to.deep.equal([8, failed("insufficient deposit: minimum deposit 10000000uhub, 5000uhub got: invalid deposit")]);
    ok(await kit.deliver(OTHER, [bind("2ucat")]));
  });

  it("answers a call of the oracle-price service itself, in the same transaction (RequestModuleService)", async () => {
    // irishub's InitChainer defines oracle-price; the dev genesis does not, so it is defined here
    const schemas = JSON.stringify({ input: { type: "object" }, output: { type: "object" } });
    ok(
      await kit.deliver(SUPER, [
        msg("service", "MsgDefineService", { name: "oracle-price", description: "", tags: [], author: kit.addresses[SUPER], author_description: "", schemas }),
      ]),
    );
    const callPrice = (pair: string) =>
      msg("service", "MsgCallService", {
        service_name: "oracle-price",
        providers: [kit.addresses[P1]],
        consumer: kit.addresses[OTHER],
        input: JSON.stringify({ header: {}, body: { pair } }),
        service_fee_cap: coins(1),
        timeout: "1",
        repeated: false,
        repeated_frequency: "0",
        repeated_total: "0",
      });
    const called = await kit.deliver(OTHER, [callPrice("ucat-uhub")]);
    ok(called);
    const [responded] = attributesOf(called.events, "respond_service");
    const response = (await kit.query("extmod.service.Query.Response", { request_id: responded!.request_id })).body.response as Json;
    expect(response.output).to.equal(JSON.stringify({ header: {}, body: { rate: "0.50000000" } }));
    const context = (await kit.query("extmod.service.Query.RequestContext", { request_context_id: responded!.request_context_id })).body
      .request_context as Json;
    // the keeper saves the copy it read before the request: completed, its batch counters as they were
    expect(context).to.deep.include({ state: "COMPLETED", batch_counter: "0", timeout: "1" });
    // an answer other than 200 has no output, which v1.3.1's AddResponse then refuses
    const unknownPair = await kit.deliver(OTHER, [callPrice("udog-uhub")]);
    expect([unknownPair.codespace, unknownPair.code, unknownPair.log]).to.deep.equal([
      "service",
      38,
      failed("EOF: invalid response output: invalid response output"),
    ]);
  });
});
