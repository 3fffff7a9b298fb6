import { expect } from "chai";
import { devAppState, fixedAddress, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { serviceModule } from "../../../../src/node/modules/service/module.js";

const address = fixedAddress;
const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

describe("service genesis", () => {
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
    expectError(
      (s) => (s.requests[0].request.request_context_batch_counter = "2"),
      "requests[0].request.request_context_batch_counter: the request id says batch 3",
    );
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
