import type { DevGenesisContext } from "../devGenesisContext.js";
import { devAddress, devTxHash } from "../shared/devAddresses.js";
import { upperHex } from "../shared/hexBytes.js";
import { makeRequestContextId, makeRequestId } from "./ids.js";

const DEV_SERVICE_NAME = "price-feed";
const TAX_PERCENT = 5n; // params.service_fee_tax "0.05" below
const REQUEST_HEIGHT = 1n;

/** The request contexts of the development chain: the two oracle feeds' and one consumer's call. */
export function devRequestContextIds(chainId: string) {
  return {
    hubUsdtFeed: makeRequestContextId(devTxHash(`${chainId}/create_feed/hub-usdt`), 0n),
    hubBtcFeed: makeRequestContextId(devTxHash(`${chainId}/create_feed/hub-btc`), 1n),
    hubEthCall: makeRequestContextId(devTxHash(`${chainId}/call_service/hub-eth`), 2n),
  };
}

/**
 * The bindings to "price-feed" (account index of provider and owner). Three
 * providers serve the hub-usdt feed; the fourth binding is disabled, its
 * deposit below the minimum (price × min_deposit_multiple).
 * `responded`: how many batches of the hub-usdt feed the provider answered.
 */
const BINDINGS = [
  { provider: 1, owner: 1, deposit: 200_000n, price: 100n, qos: 10, responded: 3, available: true },
  { provider: 2, owner: 1, deposit: 300_000n, price: 150n, qos: 20, responded: 3, available: true, promotion: true },
  { provider: 3, owner: 3, deposit: 150_000n, price: 120n, qos: 15, responded: 2, available: true },
  { provider: 4, owner: 3, deposit: 100_000n, price: 200n, qos: 30, responded: 0, available: false },
];

/**
 * A service "price-feed" with four bindings, a withdraw address, and three
 * request contexts: the running hub-usdt feed in its third batch (two of its
 * three providers have responded), the paused hub-btc feed, and a one-off
 * call whose request to provider 3 is pending. Deposits, the service fees
 * held for pending requests and earned fees, and the taxes are funded in the
 * module accounts of the real module.
 */
export function serviceDevGenesis(ctx: DevGenesisContext): unknown {
  const denom = ctx.denom;
  const address = (i: number) => devAddress(ctx, i);
  const coins = (amount: bigint) => [{ denom, amount: amount.toString() }];
  const ids = devRequestContextIds(ctx.chainId);
  const zeroTime = "0001-01-01T00:00:00Z";

  const bindings = BINDINGS.map((b) => ({
    service_name: DEV_SERVICE_NAME,
    provider: address(b.provider),
    deposit: coins(b.deposit),
    pricing: JSON.stringify({ price: `${b.price}${denom}`, ...(b.promotion ? { promotions_by_volume: [{ volume: 10, discount: "0.9" }] } : {}) }),
    qos: String(b.qos),
    options: "{}",
    available: b.available,
    disabled_time: b.available ? zeroTime : new Date(ctx.genesisTime.getTime() - 86_400_000).toISOString(),
    owner: address(b.owner),
  }));

  const usdtProviders = BINDINGS.filter((b) => b.available);
  const feed = (pair: string) => JSON.stringify({ header: {}, body: { pair } });
  const requestContexts = {
    [upperHex(ids.hubUsdtFeed)]: {
      service_name: DEV_SERVICE_NAME,
      providers: usdtProviders.map((b) => address(b.provider)),
      consumer: address(0),
      input: feed("hub-usdt"),
      service_fee_cap: coins(200n),
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
    },
    [upperHex(ids.hubBtcFeed)]: {
      service_name: DEV_SERVICE_NAME,
      providers: [address(1), address(2)],
      consumer: address(0),
      input: feed("hub-btc"),
      service_fee_cap: coins(300n),
      module_name: "oracle",
      timeout: "40",
      repeated: true,
      repeated_frequency: "60",
      repeated_total: "-1",
      batch_counter: "0",
      batch_request_count: 0,
      batch_response_count: 0,
      batch_response_threshold: 1,
      response_threshold: 1,
      batch_state: "BATCH_COMPLETED",
      state: "PAUSED",
    },
    [upperHex(ids.hubEthCall)]: {
      service_name: DEV_SERVICE_NAME,
      providers: [address(3)],
      consumer: address(6),
      input: feed("hub-eth"),
      service_fee_cap: coins(500n),
      module_name: "",
      timeout: "30",
      repeated: false,
      repeated_frequency: "0",
      repeated_total: "0",
      batch_counter: "1",
      batch_request_count: 1,
      batch_response_count: 0,
      batch_response_threshold: 0,
      response_threshold: 0,
      batch_state: "BATCH_RUNNING",
      state: "RUNNING",
    },
  };

  const request = (
    contextId: Uint8Array,
    batch: bigint,
    index: number,
    provider: (typeof BINDINGS)[number],
    consumer: string,
    pair: string,
    timeout: bigint,
  ) => ({
    id: upperHex(makeRequestId(contextId, batch, REQUEST_HEIGHT, index)),
    service_name: DEV_SERVICE_NAME,
    provider: address(provider.provider),
    consumer,
    input: feed(pair),
    service_fee: coins(provider.price),
    request_height: REQUEST_HEIGHT.toString(),
    expiration_height: (REQUEST_HEIGHT + timeout).toString(),
    request_context_id: upperHex(contextId),
    request_context_batch_counter: batch.toString(),
  });
  const rates = ["1.2741", "1.2759"];
  const requests = [
    ...usdtProviders.map((provider, i) => {
      const entry = request(ids.hubUsdtFeed, 3n, i, provider, address(0), "hub-usdt", 50n);
      const rate = rates[i];
      if (!rate) return { request: entry };
      const response = {
        provider: entry.provider,
        consumer: entry.consumer,
        result: JSON.stringify({ code: 200, message: "" }),
        output: JSON.stringify({ header: {}, body: { rate } }),
        request_context_id: entry.request_context_id,
        request_context_batch_counter: entry.request_context_batch_counter,
      };
      return { request: entry, response };
    }),
    { request: request(ids.hubEthCall, 1n, 0, BINDINGS[2]!, address(6), "hub-eth", 30n) },
  ];

  const tax = (fee: bigint) => (fee * TAX_PERCENT) / 100n;
  const earned = BINDINGS.filter((b) => b.responded > 0).map((b) => ({ provider: b, amount: BigInt(b.responded) * (b.price - tax(b.price)) }));
  const taxes = BINDINGS.reduce((sum, b) => sum + BigInt(b.responded) * tax(b.price), 0n);
  const pendingFees = requests.filter((r) => !("response" in r)).reduce((sum, r) => sum + BigInt(r.request.service_fee[0]!.amount), 0n);

  ctx.fund(ctx.moduleAccount("service_deposit_account", ["burner"]), coins(BINDINGS.reduce((sum, b) => sum + b.deposit, 0n)));
  ctx.fund(ctx.moduleAccount("service_request_account", []), coins(pendingFees + earned.reduce((sum, e) => sum + e.amount, 0n)));
  ctx.fund(ctx.moduleAccount("service_fee_collector", ["burner"]), coins(taxes));

  return {
    params: {
      max_request_timeout: "100",
      min_deposit_multiple: "1000",
      min_deposit: coins(5000n),
      service_fee_tax: "0.05",
      slash_fraction: "0.001",
      complaint_retrospect: "1296000s",
      arbitration_time_limit: "432000s",
      tx_size_limit: "4000",
      base_denom: denom,
    },
    definitions: [
      {
        name: DEV_SERVICE_NAME,
        description: "The latest price of a trading pair",
        tags: ["price", "oracle"],
        author: address(0),
        author_description: "the development chain's operator",
        schemas: JSON.stringify({
          input: { $schema: "http://json-schema.org/draft-04/schema#", title: "price-feed input", type: "object", properties: { pair: { type: "string" } } },
          output: { $schema: "http://json-schema.org/draft-04/schema#", title: "price-feed output", type: "object", properties: { rate: { type: "string" } } },
        }),
      },
    ],
    bindings,
    withdraw_addresses: { [address(1)]: address(5) },
    request_contexts: requestContexts,
    requests,
    earned_fees: earned.map((e) => ({ provider: address(e.provider.provider), fees: coins(e.amount) })),
  };
}
