import { expect } from "chai";
import { devAppState, fixedAccounts, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import type { NodeModule } from "../../../../src/node/modules/nodeModule.js";
import { slashingModule } from "../../../../src/node/modules/slashing/module.js";

const accounts = fixedAccounts(5);
const appState = () => devAppState({ accounts: 5, consensusKeyFill: 3 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

/** Runs the InitGenesis of bank and then of `modules` on an empty in-memory state. */

describe("slashing genesis", () => {
  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  it("slashing: the real parameter bounds and consensus addresses", () => {
    expectError(slashingModule, (s) => (s.params.signed_blocks_window = "5"), "params.signed_blocks_window: signed blocks window must be at least 10, is 5");
    expectError(
      slashingModule,
      (s) => (s.params.slash_fraction_downtime = "1.5"),
      "params.slash_fraction_downtime: slashing fraction downtime must be between 0 and 1",
    );
    expectError(
      slashingModule,
      (s) => (s.params.downtime_jail_duration = "30s"),
      "params.downtime_jail_duration: downtime unjail duration must be at least 1 minute",
    );
    expectError(slashingModule, (s) => (s.signing_infos[1].address = accounts[1]!.address), "signing_infos[1].address: invalid address");
  });
});
