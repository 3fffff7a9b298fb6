import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { govModule } from "../../../../src/node/modules/gov/module.js";
import type { NodeModule } from "../../../../src/node/modules/nodeModule.js";

const appState = () => devAppState({ accounts: 5, consensusKeyFill: 3 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

/** Runs the InitGenesis of bank and then of `modules` on an empty in-memory state. */

describe("gov genesis", () => {
  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  it("gov: thresholds, known proposals, valid options, a starting id past every proposal", () => {
    expectError(
      govModule,
      (s) => (s.tally_params.threshold = "1.2"),
      "tally_params.threshold: governance vote threshold must be between 0 and 1, is 1.200000000000000000",
    );
    expectError(govModule, (s) => (s.votes[0].proposal_id = "7"), "votes[0].proposal_id: proposal 7 is not in proposals");
    expectError(govModule, (s) => (s.votes[1].option = "VOTE_OPTION_UNSPECIFIED"), "votes[1].option: invalid vote option");
    expectError(govModule, (s) => (s.starting_proposal_id = "2"), "starting_proposal_id: must be greater than every proposal id (2), is 2");
    expectError(govModule, (s) => (s.deposits[0].depositor = "hub1xyz"), "deposits[0].depositor: invalid address");
  });
});
