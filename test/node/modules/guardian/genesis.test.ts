import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { guardianModule } from "../../../../src/node/modules/guardian/module.js";
import type { NodeModule } from "../../../../src/node/modules/nodeModule.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

describe("guardian genesis", () => {
  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  it("guardian: bech32 addresses of the chain, no duplicates", () => {
    expectError(guardianModule, (s) => (s.supers[0].added_by = "cosmos1xyz"), "supers[0].added_by");
    expectError(guardianModule, (s) => s.supers.push({ ...s.supers[0] }), "supers[1].address: duplicate super");
  });
});
