import { expect } from "chai";
import { moduleAddress } from "../../../src/codec/addresses.js";
import { devAppState, fixedAccounts, fixedAddress, TEST_CHAIN, validateModuleGenesis, type GenesisJson } from "../../helpers/moduleGenesis.js";
import type { DevGenesisContext } from "../../../src/node/modules/devGenesisContext.js";
import { oracleModule } from "../../../src/node/modules/oracle/module.js";
import { randomModule } from "../../../src/node/modules/random/module.js";
import { recordModule } from "../../../src/node/modules/record/module.js";
import { contextIdParam, makeRequestId, requestIdParam, splitRequestId } from "../../../src/node/modules/service/ids.js";
import { serviceModule } from "../../../src/node/modules/service/module.js";

const chain = TEST_CHAIN;
const accounts = fixedAccounts;
const address = fixedAddress;
const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

const MODULES = [serviceModule, oracleModule, randomModule, recordModule];

describe("service, oracle, random and record genesis", () => {
  it("writes a development genesis that validates", () => {
    const state = appState();
    for (const module of MODULES) expect(() => validate(module, state[module.name]), module.name).not.to.throw();
  });

  it("writes a valid genesis for a chain with a single account too (stand-in addresses for the others)", () => {
    const context: DevGenesisContext = {
      chainId: chain.chainId,
      prefix: "hub",
      denom: "uhub",
      genesisTime: new Date("2024-01-01T00:00:00Z"),
      accounts: accounts(1),
      consensusPublicKey: new Uint8Array(32),
      moduleAccount: (name) => moduleAddress("hub", name),
      fund: () => undefined,
      account: () => undefined,
      otherAccounts: [],
      moduleAccounts: [],
      balances: new Map(),
    };
    for (const module of MODULES) expect(() => validate(module, module.devGenesis!(context)), module.name).not.to.throw();
  });

  describe("service", () => {
    const expectError = (edit: (state: Json) => void, message: string) => {
      const state = appState().service;
      edit(state);
      expect(() => validate(serviceModule, state)).to.throw(message);
    };
    const firstContextId = (state: Json) => Object.keys(state.request_contexts)[0]!;

    it("rejects bad params with the real rule", () => {
      expectError((s) => (s.params.max_request_timeout = "0"), "params.max_request_timeout: maximum request timeout must be positive");
      expectError((s) => (s.params.service_fee_tax = "1"), "params.service_fee_tax: service fee tax must be between [0, 1)");
      expectError((s) => (s.params.slash_fraction = "1.5"), "params.slash_fraction: slashing fraction must be between [0, 1]");
      expectError((s) => (s.params.base_denom = "1x"), 'params.base_denom: invalid denom "1x"');
    });

    it("rejects bad definitions and bindings, naming the field", () => {
      expectError((s) => (s.definitions[0].name = "price feed"), 'definitions[0].name: invalid service name "price feed"');
      expectError((s) => (s.definitions[0].schemas = '{"input":{}}'), 'definitions[0].schemas: needs an "output" JSON schema object');
      expectError((s) => (s.bindings[1].service_name = "weather"), "bindings[1].service_name: unknown service definition weather");
      expectError((s) => (s.bindings[1].provider = s.bindings[0].provider), "bindings[1]: duplicate binding of");
      expectError((s) => (s.bindings[0].pricing = '{"price":"0.5hub"}'), 'bindings[0].pricing: "price" must be an amount and a denom');
      expectError((s) => (s.bindings[0].deposit = [{ denom: "uhub", amount: "0" }]), 'bindings[0].deposit[0].amount: must be a positive integer, got "0"');
      expectError((s) => (s.bindings[0].qos = "0"), "bindings[0].qos: must be positive");
      expectError((s) => (s.bindings[0].owner = "cosmos1abc"), "bindings[0].owner");
    });

    it("rejects request contexts with a malformed id or an unknown service", () => {
      expectError((s) => {
        s.request_contexts.ABCD = s.request_contexts[firstContextId(s)];
      }, "request_contexts[ABCD]: a request context id is 80 hex digits");
      expectError((s) => (s.request_contexts[firstContextId(s)].service_name = "weather"), "unknown service definition weather");
    });

    it("rejects requests whose id does not match their fields, or whose context or binding is unknown", () => {
      expectError((s) => (s.requests[0].request.request_height = "2"), "requests[0].request.request_height: the request id says height 1");
      expectError((s) => (s.requests[0].request.request_context_batch_counter = "2"), "requests[0].request.request_context_batch_counter: the request id says batch 3");
      expectError((s) => (s.requests[0].request.input = "{}"), "requests[0].request.input: differs from the request context's");
      expectError((s) => (s.requests[0].request.provider = address(99)), "requests[0].request.provider:");
      expectError((s) => (s.requests[1].request = { ...s.requests[0].request }), "requests[1].request.id: duplicate request");
      expectError((s) => (s.requests[0].response.provider = s.requests[1].request.provider), "requests[0].response.provider: differs from the request's");
      expectError((s) => (s.requests[0].response.result = '{"code":201}'), 'requests[0].response.result: "code" must be 200, 400 or 500');
    });

    it("rejects earned fees of a provider without a binding", () => {
      expectError((s) => (s.earned_fees[0].provider = address(99)), "has no service binding, so no owner to credit");
      expectError((s) => (s.earned_fees[0].fees = []), "earned_fees[0].fees: must not be empty");
    });
  });

  it("oracle: rejects a bad feed name, aggregate function, history or context id", () => {
    const expectError = (edit: (state: Json) => void, message: string) => {
      const state = appState().oracle;
      edit(state);
      expect(() => validate(oracleModule, state)).to.throw(message);
    };
    expectError((s) => (s.entries[0].feed.feed_name = "1usdt"), 'entries[0].feed.feed_name: invalid feed name "1usdt"');
    expectError((s) => (s.entries[1].feed.feed_name = "hub-usdt"), "entries[1].feed.feed_name: duplicate feed hub-usdt");
    expectError((s) => (s.entries[0].feed.aggregate_func = "median"), "entries[0].feed.aggregate_func: must be one of max, min, avg");
    expectError((s) => (s.entries[0].feed.latest_history = "1"), "entries[0].values: more values than latest_history (1)");
    expectError((s) => (s.entries[0].feed.request_context_id = "00"), "entries[0].feed.request_context_id: a request context id is 80 hex digits");
  });

  it("random: rejects a bad generation height, a request due before it was made, or a malformed random", () => {
    const expectError = (edit: (state: Json) => void, message: string) => {
      const state = appState().random;
      edit(state);
      expect(() => validate(randomModule, state)).to.throw(message);
    };
    expectError((s) => (s.pending_random_requests["0"] = s.pending_random_requests["101"]), "pending_random_requests[0]: the key is the height at which the random number is generated");
    expectError((s) => (s.pending_random_requests["101"].requests[0].height = "101"), "pending_random_requests[101].requests[0].height: the request height must be before the generation height 101");
    expectError((s) => (s.pending_random_requests["201"] = s.pending_random_requests["101"]), "duplicate request");
    expectError((s) => (Object.values(s.randoms as Json)[0].value = "lots"), ".value: a random number is decimal text");
  });

  it("record: rejects a record without contents or with a bad creator", () => {
    const state = appState().record;
    state.records[0].contents = [];
    expect(() => validate(recordModule, state)).to.throw("records[0].contents: a record has at least one content");
    state.records[0].creator = "hub1";
    expect(() => validate(recordModule, state)).to.throw("records[0].creator");
  });

  it("splits a request id into its context, batch, height and index, and checks id parameters like the real handlers", () => {
    const context = Uint8Array.from({ length: 40 }, (_, i) => i);
    const id = makeRequestId(context, 7n, 123n, 2);
    expect(id).to.have.length(58);
    const parts = splitRequestId(id);
    expect([Buffer.from(parts.contextId).equals(Buffer.from(context)), parts.batchCounter, parts.requestHeight, parts.index]).to.deep.equal([true, 7n, 123n, 2]);
    expect(Buffer.from(requestIdParam(Buffer.from(id).toString("hex").toUpperCase())).equals(Buffer.from(id))).to.equal(true);
    expect(() => contextIdParam("ab")).to.throw("length of the request context ID must be 80 in bytes: invalid request context ID");
    expect(() => requestIdParam("g".repeat(116))).to.throw("request ID must be a hex encoded string: invalid request context ID");
  });
});
