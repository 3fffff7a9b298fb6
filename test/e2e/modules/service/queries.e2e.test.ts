import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "bech32";
import type { HttpAnswer } from "../../../helpers/http.js";
import { grpcBadRequest as badRequest, grpcNotFound as notFound, useStartedDevChain } from "../../../helpers/startedDevChain.js";
import { proto3JsonTime } from "../../../helpers/timeText.js";
import { walkPages } from "../../../helpers/pageWalk.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const be = (value: bigint, bytes: number) => value.toString(16).padStart(bytes * 2, "0");
const addressBytes = (address: string) => hex(Uint8Array.from(bech32.fromWords(bech32.decode(address).words)));

/** The service routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: service routes", function () {
  this.timeout(120_000);
  const chain = useStartedDevChain();
  const { home, get } = chain;
  let a: string[];
  let genesisMs: number;
  /** Request context ids of the dev genesis (dev data, read from genesis.json); everything derived from them is computed here. */
  let usdtContext: string;
  let btcContext: string;
  let ethContext: string;

  before(() => {
    a = chain.accounts();
    const genesis = JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8"));
    genesisMs = Date.parse(genesis.genesis_time);
    const contexts = genesis.app_state.service.request_contexts as Record<string, { input: string }>;
    const contextOf = (pair: string) => Object.keys(contexts).find((id) => contexts[id]!.input.includes(`"${pair}"`))!;
    [usdtContext, btcContext, ethContext] = [contextOf("hub-usdt"), contextOf("hub-btc"), contextOf("hub-eth")];
  });

  const expectAnswer = (r: HttpAnswer, status: number, body: unknown) => {
    expect(r.body, r.text).to.deep.equal(body);
    expect(r.status).to.equal(status);
  };
  const uhub = (amount: number) => [{ denom: "uhub", amount: String(amount) }];

  const walk = (route: string, listKey: string) => walkPages(get, route, listKey);

  const zeroTime = "0001-01-01T00:00:00Z";
  const binding = (provider: number, owner: number, deposit: number, pricing: object, qos: string, disabledTime = zeroTime) => ({
    service_name: "price-feed",
    provider: a[provider],
    deposit: uhub(deposit),
    pricing: JSON.stringify(pricing),
    qos,
    options: "{}",
    available: disabledTime === zeroTime,
    disabled_time: disabledTime,
    owner: a[owner],
  });
  const bindings = () => [
    binding(1, 1, 200000, { price: "100uhub" }, "10"),
    binding(2, 1, 300000, { price: "150uhub", promotions_by_volume: [{ volume: 10, discount: "0.9" }] }, "20"),
    binding(3, 3, 150000, { price: "120uhub" }, "15"),
    binding(4, 3, 100000, { price: "200uhub" }, "30", proto3JsonTime(genesisMs - 86_400_000)),
  ];
  const byProviderText = (x: { provider?: string }, y: { provider?: string }) => (x.provider! < y.provider! ? -1 : 1);
  const byProviderBytes = (x: { provider?: string }, y: { provider?: string }) => (addressBytes(x.provider!) < addressBytes(y.provider!) ? -1 : 1);

  /** GenerateRequestID: context id, batch counter, request height, index of the provider in the batch. */
  const requestId = (context: string, batch: number, index: number) => `${context}${be(BigInt(batch), 8)}${be(1n, 8)}${be(BigInt(index), 2)}`.toUpperCase();
  const feedInput = (pair: string) => JSON.stringify({ header: {}, body: { pair } });
  const usdtRequest = (index: number, provider: number, fee: number) => ({
    id: requestId(usdtContext, 3, index),
    service_name: "price-feed",
    provider: a[provider],
    consumer: a[0],
    input: feedInput("hub-usdt"),
    service_fee: uhub(fee),
    request_height: "1",
    expiration_height: "51",
    request_context_id: usdtContext,
    request_context_batch_counter: "3",
  });
  const ethRequest = () => ({
    id: requestId(ethContext, 1, 0),
    service_name: "price-feed",
    provider: a[3],
    consumer: a[6],
    input: feedInput("hub-eth"),
    service_fee: uhub(120),
    request_height: "1",
    expiration_height: "31",
    request_context_id: ethContext,
    request_context_batch_counter: "1",
  });
  const response = (provider: number, rate: string) => ({
    provider: a[provider],
    consumer: a[0],
    result: '{"code":200,"message":""}',
    output: JSON.stringify({ header: {}, body: { rate } }),
    request_context_id: usdtContext,
    request_context_batch_counter: "3",
  });

  it("serves the service definition, and 404 for an unknown one", async () => {
    expectAnswer(await get("/extmod/service/definitions/price-feed"), 200, {
      service_definition: {
        name: "price-feed",
        description: "The latest price of a trading pair",
        tags: ["price", "oracle"],
        author: a[0],
        author_description: "the development chain's operator",
        schemas: JSON.stringify({
          input: { $schema: "http://json-schema.org/draft-04/schema#", title: "price-feed input", type: "object", properties: { pair: { type: "string" } } },
          output: { $schema: "http://json-schema.org/draft-04/schema#", title: "price-feed output", type: "object", properties: { rate: { type: "string" } } },
        }),
      },
    });
    expectAnswer(await get("/extmod/service/definitions/weather"), 404, notFound("weather: unknown service definition"));
  });

  it("serves one binding, 404 for a provider without one, 400 for a bad provider address", async () => {
    expectAnswer(await get(`/extmod/service/bindings/price-feed/${a[4]}`), 200, { service_binding: bindings()[3] });
    expectAnswer(await get(`/extmod/service/bindings/price-feed/${a[5]}`), 404, notFound(`service: price-feed, provider: ${a[5]}: unknown service binding`));
    const r = await get("/extmod/service/bindings/price-feed/hub1nothing");
    expect(r.status).to.equal(400);
    expect(r.body.message).to.match(/^rpc error: code = InvalidArgument desc = invalid provider "hub1nothing": decoding bech32 failed/);
  });

  it("lists the bindings of a service by provider address, in pages by key and by offset", async () => {
    const all = bindings().sort(byProviderText);
    expectAnswer(await get("/extmod/service/bindings/price-feed"), 200, { service_bindings: all, pagination: { next_key: null, total: "4" } });
    const { byKey, byOffset } = await walk("/extmod/service/bindings/price-feed", "service_bindings");
    expect(byKey).to.deep.equal(all);
    expect(byOffset).to.deep.equal(all);
    expectAnswer(await get("/extmod/service/bindings/weather"), 200, { service_bindings: [], pagination: { next_key: null, total: "0" } });
  });

  it("filters the bindings by owner (ordered by provider address bytes), in pages", async () => {
    const ownedBy1 = bindings().slice(0, 2).sort(byProviderBytes);
    expectAnswer(await get(`/extmod/service/bindings/price-feed?owner=${a[1]}`), 200, {
      service_bindings: ownedBy1,
      pagination: { next_key: null, total: "2" },
    });
    const { byKey, byOffset } = await walk(`/extmod/service/bindings/price-feed?owner=${a[3]}`, "service_bindings");
    expect(byKey).to.deep.equal(bindings().slice(2).sort(byProviderBytes));
    expect(byOffset).to.deep.equal(byKey);
    expectAnswer(await get(`/extmod/service/bindings/price-feed?owner=${a[9]}`), 200, { service_bindings: [], pagination: { next_key: null, total: "0" } });
    const bad = await get("/extmod/service/bindings/price-feed?owner=cosmos1xyz");
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.include('invalid owner "cosmos1xyz"');
  });

  it("serves an owner's withdraw address, which defaults to the owner", async () => {
    expectAnswer(await get(`/extmod/service/owners/${a[1]}/withdraw-address`), 200, { withdraw_address: a[5] });
    expectAnswer(await get(`/extmod/service/owners/${a[3]}/withdraw-address`), 200, { withdraw_address: a[3] });
    expect((await get("/extmod/service/owners/nobody/withdraw-address")).status).to.equal(400);
  });

  it("serves the params, also through x/params under the real keys", async () => {
    expectAnswer(await get("/extmod/service/params"), 200, {
      params: {
        max_request_timeout: "100",
        min_deposit_multiple: "1000",
        min_deposit: uhub(5000),
        service_fee_tax: "0.050000000000000000",
        slash_fraction: "0.001000000000000000",
        complaint_retrospect: "1296000s",
        arbitration_time_limit: "432000s",
        tx_size_limit: "4000",
        base_denom: "uhub",
      },
      res: null,
    });
    const param = async (key: string) => (await get(`/core/params/v1beta1/params?subspace=service&key=${key}`)).body.param.value;
    expect(await param("MaxRequestTimeout")).to.equal('"100"');
    expect(await param("MinDeposit")).to.equal('[{"denom":"uhub","amount":"5000"}]');
    expect(await param("ServiceFeeTax")).to.equal('"0.050000000000000000"');
    expect(await param("ComplaintRetrospect")).to.equal('"1296000000000000"');
    expect(await param("BaseDenom")).to.equal('"uhub"');
  });

  it("serves a request context by its hex id in either case, 404 for an unknown one, 400 for a malformed one", async () => {
    const context = {
      service_name: "price-feed",
      providers: [a[1], a[2], a[3]],
      consumer: a[0],
      input: feedInput("hub-usdt"),
      service_fee_cap: uhub(200),
      module_name: "oracle",
      timeout: "50",
      repeated: true,
      repeated_frequency: "100",
      repeated_total: "-1",
      batch_counter: "3",
      batch_request_count: 3,
      batch_response_count: 2,
      batch_response_threshold: 2,
      response_threshold: 2,
      batch_state: "BATCH_RUNNING",
      state: "RUNNING",
    };
    expectAnswer(await get(`/extmod/service/contexts/${usdtContext}`), 200, { request_context: context });
    expectAnswer(await get(`/extmod/service/contexts/${usdtContext.toLowerCase()}`), 200, { request_context: context });
    const paused = (await get(`/extmod/service/contexts/${btcContext}`)).body.request_context;
    expect([paused.state, paused.batch_state, paused.batch_counter, paused.module_name]).to.deep.equal(["PAUSED", "BATCH_COMPLETED", "0", "oracle"]);
    const call = (await get(`/extmod/service/contexts/${ethContext}`)).body.request_context;
    expect([call.consumer, call.repeated, call.module_name, call.response_threshold]).to.deep.equal([a[6], false, "", 0]);
    expectAnswer(await get(`/extmod/service/contexts/${"0".repeat(80)}`), 404, notFound(`${"0".repeat(80)}: unknown request context`));
    expectAnswer(
      await get("/extmod/service/contexts/ABCD"),
      400,
      badRequest("length of the request context ID must be 80 in bytes: invalid request context ID"),
    );
    expectAnswer(
      await get(`/extmod/service/contexts/${"Z".repeat(80)}`),
      400,
      badRequest("request context ID must be a hex encoded string: invalid request context ID"),
    );
  });

  it("serves a request by its id, built from the stored request and its context", async () => {
    expectAnswer(await get(`/extmod/service/requests/${requestId(usdtContext, 3, 0)}`), 200, { request: usdtRequest(0, 1, 100) });
    expectAnswer(await get(`/extmod/service/requests/${requestId(ethContext, 1, 0).toLowerCase()}`), 200, { request: ethRequest() });
    const missing = requestId(usdtContext, 2, 0);
    expectAnswer(await get(`/extmod/service/requests/${missing}`), 404, notFound(`${missing}: unknown request`));
    expectAnswer(await get("/extmod/service/requests/abc"), 400, badRequest("invalid length, expected: 116, got: 3: invalid request ID"));
    expectAnswer(
      await get(`/extmod/service/requests/${"x".repeat(116)}`),
      400,
      badRequest("request ID must be a hex encoded string: invalid request context ID"),
    );
  });

  it("lists a provider's active requests (ordered by expiration height), in pages; answered ones are gone", async () => {
    const active = [ethRequest(), usdtRequest(2, 3, 120)];
    expectAnswer(await get(`/extmod/service/requests/price-feed/${a[3]}`), 200, { requests: active, pagination: { next_key: null, total: "2" } });
    const { byKey, byOffset } = await walk(`/extmod/service/requests/price-feed/${a[3]}`, "requests");
    expect(byKey).to.deep.equal(active);
    expect(byOffset).to.deep.equal(active);
    expectAnswer(await get(`/extmod/service/requests/price-feed/${a[1]}`), 200, { requests: [], pagination: { next_key: null, total: "0" } });
    expect((await get("/extmod/service/requests/price-feed/hub1bad")).body.message).to.include('invalid provider "hub1bad"');
  });

  it("lists the requests of a batch when the second segment is a number, in pages", async () => {
    const batch = [usdtRequest(0, 1, 100), usdtRequest(1, 2, 150), usdtRequest(2, 3, 120)];
    expectAnswer(await get(`/extmod/service/requests/${usdtContext}/3`), 200, { requests: batch, pagination: { next_key: null, total: "3" } });
    const { byKey, byOffset } = await walk(`/extmod/service/requests/${usdtContext}/3`, "requests");
    expect(byKey).to.deep.equal(batch);
    expect(byOffset).to.deep.equal(batch);
    expectAnswer(await get(`/extmod/service/requests/${usdtContext}/2`), 200, { requests: [], pagination: { next_key: null, total: "0" } });
    // A numeric provider segment is a batch counter: the request context id is then checked.
    expectAnswer(
      await get("/extmod/service/requests/price-feed/3"),
      400,
      badRequest("length of the request context ID must be 80 in bytes: invalid request context ID"),
    );
  });

  it("serves the response of a request, 404 while it is unanswered", async () => {
    expectAnswer(await get(`/extmod/service/responses/${requestId(usdtContext, 3, 1)}`), 200, { response: response(2, "1.2759") });
    const pending = requestId(usdtContext, 3, 2);
    expectAnswer(await get(`/extmod/service/responses/${pending}`), 404, notFound(`${pending}: unknown response`));
    expectAnswer(await get("/extmod/service/responses/12"), 400, badRequest("invalid length, expected: 116, got: 2: invalid request ID"));
  });

  it("lists the responses of a batch, in pages", async () => {
    const responses = [response(1, "1.2741"), response(2, "1.2759")];
    expectAnswer(await get(`/extmod/service/responses/${usdtContext}/3`), 200, { responses, pagination: { next_key: null, total: "2" } });
    const { byKey, byOffset } = await walk(`/extmod/service/responses/${usdtContext}/3`, "responses");
    expect(byKey).to.deep.equal(responses);
    expect(byOffset).to.deep.equal(responses);
    expectAnswer(await get(`/extmod/service/responses/${ethContext}/1`), 200, { responses: [], pagination: { next_key: null, total: "0" } });
    expectAnswer(
      await get("/extmod/service/responses/ABC/1"),
      400,
      badRequest("length of the request context ID must be 80 in bytes: invalid request context ID"),
    );
  });

  it("serves the fees a provider earned (price less the 5% tax, per answered batch), 404 when none", async () => {
    expectAnswer(await get(`/extmod/service/fees/${a[1]}`), 200, { fees: uhub(3 * (100 - 5)) });
    expectAnswer(await get(`/extmod/service/fees/${a[2]}`), 200, { fees: uhub(3 * (150 - 7)) });
    expectAnswer(await get(`/extmod/service/fees/${a[3]}`), 200, { fees: uhub(2 * (120 - 6)) });
    expectAnswer(await get(`/extmod/service/fees/${a[4]}`), 404, notFound(`no earned fees for ${a[4]}: no earned fees`));
    expect((await get("/extmod/service/fees/hub1x")).status).to.equal(400);
  });

  it("holds deposits, pending service fees plus earned fees, and taxes in the module accounts", async () => {
    const balance = async (name: string) => {
      const address = bech32.encode("hub", bech32.toWords(sha256(utf8(name)).subarray(0, 20)));
      return (await get(`/core/bank/v1beta1/balances/${address}/uhub`)).body.balance.amount;
    };
    expect(await balance("service_deposit_account")).to.equal(String(200000 + 300000 + 150000 + 100000));
    expect(await balance("service_request_account")).to.equal(String(120 + 120 + 285 + 429 + 228));
    expect(await balance("service_fee_collector")).to.equal(String(3 * 5 + 3 * 7 + 2 * 6));
  });

  it("serves the built-in pricing and result schemas as the module's JSON-schema text", async () => {
    const pricing = (await get("/extmod/service/schemas/pricing")).body.schema as string;
    expect(pricing.startsWith('\n\t{\n\t\t"$schema": "http://json-schema.org/draft-04/schema#",\n\t\t"title": "iservice-pricing",')).to.equal(true);
    const parsed = JSON.parse(pricing);
    expect(parsed.required).to.deep.equal(["price"]);
    expect(parsed.properties.price).to.deep.equal({
      description: "base price in min unit, e.g. 5uhub",
      type: "string",
      pattern: "^\\d+[a-zA-Z][a-zA-Z0-9/]{2,127}$",
    });
    expect(parsed.definitions.discount.pattern).to.equal("^0\\.\\d*[1-9]$");
    const result = await get("/extmod/service/schemas/RESULT");
    expect(result.status).to.equal(200);
    expect(result.body.schema.endsWith('\t\t"required": [\n\t\t\t"code",\n\t\t\t"message"\n\t\t]\n\t}')).to.equal(true);
    expect(JSON.parse(result.body.schema)).to.deep.equal({
      $schema: "http://json-schema.org/draft-04/schema#",
      title: "iservice-result",
      description: "Interchain Service Result Schema",
      type: "object",
      properties: { code: { description: "result code", type: "integer", enum: [200, 400, 500] }, message: { description: "result message", type: "string" } },
      additionalProperties: false,
      required: ["code", "message"],
    });
    expectAnswer(await get("/extmod/service/schemas/input"), 400, badRequest("input: invalid service schema name"));
  });
});
