import { expect } from "chai";
import { devAppState, validateModuleGenesis } from "../../../helpers/moduleGenesis.js";
import { recordModule } from "../../../../src/node/modules/record/module.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;

describe("record genesis", () => {
  it("record: rejects a record without contents or with a bad creator", () => {
    const state = appState().record;
    state.records[0].contents = [];
    expect(() => validate(recordModule, state)).to.throw("records[0].contents: a record has at least one content");
    state.records[0].creator = "hub1";
    expect(() => validate(recordModule, state)).to.throw("records[0].creator");
  });
});
