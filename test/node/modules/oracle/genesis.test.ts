import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { oracleModule } from "../../../../src/node/modules/oracle/module.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

describe("oracle genesis", () => {
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
});
