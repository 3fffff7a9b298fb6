import { expect } from "chai";
import { devAppState, validateModuleGenesis } from "../../../helpers/moduleGenesis.js";
import { coinswapModule } from "../../../../src/node/modules/coinswap/module.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;

describe("coinswap genesis", () => {
  it("rejects a fee outside (0, 1) and an invalid standard denom", () => {
    for (const fee of ["0", "1", "1.2"]) {
      const state = appState().coinswap;
      state.params.fee = fee;
      expect(() => validate(coinswapModule, state)).to.throw("params.fee: fee must be positive and less than 1");
    }
    const state = appState().coinswap;
    state.standard_denom = "u";
    expect(() => validate(coinswapModule, state)).to.throw("standard_denom: invalid denom: u");
  });
});
