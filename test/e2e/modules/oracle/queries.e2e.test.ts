import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import type { HttpAnswer } from "../../../helpers/http.js";
import { grpcBadRequest as badRequest, grpcNotFound as notFound, useStartedDevChain } from "../../../helpers/startedDevChain.js";
import { proto3JsonTime } from "../../../helpers/timeText.js";
import { walkPages } from "../../../helpers/pageWalk.js";

/** The oracle routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: oracle routes", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const { home, get } = chain;
  let a: string[];
  let genesisMs: number;
  /** Request context ids of the dev genesis (dev data, read from genesis.json); everything derived from them is computed here. */
  let usdtContext: string;
  let btcContext: string;

  before(() => {
    a = chain.accounts();
    const genesis = JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8"));
    genesisMs = Date.parse(genesis.genesis_time);
    const contexts = genesis.app_state.service.request_contexts as Record<string, { input: string }>;
    const contextOf = (pair: string) => Object.keys(contexts).find((id) => contexts[id]!.input.includes(`"${pair}"`))!;
    [usdtContext, btcContext] = [contextOf("hub-usdt"), contextOf("hub-btc")];
  });

  const expectAnswer = (r: HttpAnswer, status: number, body: unknown) => {
    expect(r.body, r.text).to.deep.equal(body);
    expect(r.status).to.equal(status);
  };
  const uhub = (amount: number) => [{ denom: "uhub", amount: String(amount) }];

  const walk = (route: string, listKey: string) => walkPages(get, route, listKey);

  const usdtFeed = () => ({
    feed: {
      feed_name: "hub-usdt",
      description: "HUB/USDT price, the average of the providers' rates",
      aggregate_func: "avg",
      value_json_path: "rate",
      latest_history: "10",
      request_context_id: usdtContext,
      creator: a[0],
    },
    service_name: "price-feed",
    providers: [a[1], a[2], a[3]],
    input: JSON.stringify({ header: {}, body: { pair: "hub-usdt" } }),
    timeout: "50",
    service_fee_cap: uhub(200),
    repeated_frequency: "100",
    response_threshold: 2,
    state: "RUNNING",
  });
  const btcFeed = () => ({
    feed: {
      feed_name: "hub-btc",
      description: "HUB/BTC price, the highest of the providers' rates",
      aggregate_func: "max",
      value_json_path: "rate",
      latest_history: "5",
      request_context_id: btcContext,
      creator: a[0],
    },
    service_name: "price-feed",
    providers: [a[1], a[2]],
    input: JSON.stringify({ header: {}, body: { pair: "hub-btc" } }),
    timeout: "40",
    service_fee_cap: uhub(300),
    repeated_frequency: "60",
    response_threshold: 1,
    state: "PAUSED",
  });

  it("serves a feed with the settings and state of its request context, 404 for an unknown one", async () => {
    expectAnswer(await get("/extmod/oracle/feeds/hub-usdt"), 200, { feed: usdtFeed() });
    expectAnswer(await get("/extmod/oracle/feeds/hub-eur"), 404, notFound("feed hub-eur not found"));
  });

  it("lists the feeds by name, in pages", async () => {
    expectAnswer(await get("/extmod/oracle/feeds"), 200, { feeds: [btcFeed(), usdtFeed()], pagination: { next_key: null, total: "2" } });
    const { byKey, byOffset } = await walk("/extmod/oracle/feeds", "feeds");
    expect(byKey).to.deep.equal([btcFeed(), usdtFeed()]);
    expect(byOffset).to.deep.equal(byKey);
  });

  it("filters the feeds by state, in any case; 'completed' reads the paused queue as the real module does; 400 for an unknown state", async () => {
    expectAnswer(await get("/extmod/oracle/feeds?state=running"), 200, { feeds: [usdtFeed()], pagination: { next_key: null, total: "1" } });
    expectAnswer(await get("/extmod/oracle/feeds?state=PAUSED"), 200, { feeds: [btcFeed()], pagination: { next_key: null, total: "1" } });
    expectAnswer(await get("/extmod/oracle/feeds?state=completed"), 200, { feeds: [btcFeed()], pagination: { next_key: null, total: "1" } });
    expectAnswer(await get("/extmod/oracle/feeds?state=stopped"), 400, badRequest("invalid request state"));
  });

  it("serves a feed's values, newest first; none for a feed without values or an unknown feed", async () => {
    expectAnswer(await get("/extmod/oracle/feeds/hub-usdt/values"), 200, {
      feed_values: [
        { data: "1.2738", timestamp: proto3JsonTime(genesisMs - 100_000) },
        { data: "1.2725", timestamp: proto3JsonTime(genesisMs - 200_000) },
      ],
    });
    expectAnswer(await get("/extmod/oracle/feeds/hub-btc/values"), 200, { feed_values: [] });
    expectAnswer(await get("/extmod/oracle/feeds/hub-eur/values"), 200, { feed_values: [] });
  });
});
