import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { mintModule } from "../../../../src/node/modules/mint/module.js";
import type { NodeModule } from "../../../../src/node/modules/nodeModule.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

describe("mint genesis", () => {
  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  it("mint: inflation within [0, 0.2], a valid denom, a positive inflation base", () => {
    expectError(mintModule, (s) => (s.params.inflation = "0.21"), "params.inflation: mint inflation should be between 0 and 0.2");
    expectError(mintModule, (s) => (s.params.mint_denom = ""), 'params.mint_denom: invalid denom ""');
    expectError(mintModule, (s) => (s.minter.inflation_base = "0"), 'minter.inflation_base: the inflation base should be positive, got "0"');
  });
});
