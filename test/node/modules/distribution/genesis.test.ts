import { expect } from "chai";
import { bech32 } from "bech32";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { distributionModule } from "../../../../src/node/modules/distribution/module.js";
import type { NodeModule } from "../../../../src/node/modules/nodeModule.js";

const appState = () => devAppState({ accounts: 5, consensusKeyFill: 3 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

/** Runs the InitGenesis of bank and then of `modules` on an empty in-memory state. */

describe("distribution genesis", () => {
  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  const valoper = (i: number) => bech32.encode("hubvaloper", bech32.toWords(new Uint8Array(20).fill(i + 1)));
  it("distribution: params, sorted coins and the addresses of every record", () => {
    expectError(
      distributionModule,
      (s) => (s.params.community_tax = "0.96"),
      "params: sum of base, bonus proposer rewards, and community tax cannot be greater than one: 1.010000000000000000",
    );
    expectError(
      distributionModule,
      (s) => (s.delegator_withdraw_infos[0].withdraw_address = valoper(3)),
      "delegator_withdraw_infos[0].withdraw_address: invalid address",
    );
    expectError(
      distributionModule,
      (s) =>
        (s.fee_pool.community_pool = [
          { denom: "uhub", amount: "1" },
          { denom: "uatom", amount: "1" },
        ]),
      "fee_pool.community_pool[1].denom: coins must be sorted",
    );
    expectError(
      distributionModule,
      (s) => (s.validator_slash_events[0].validator_slash_event.fraction = "2"),
      "validator_slash_events[0].validator_slash_event.fraction: slash fraction must be between 0 and 1",
    );
  });
});
