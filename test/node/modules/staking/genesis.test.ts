import { expect } from "chai";
import { bech32 } from "bech32";
import { devAppState, fixedAccounts, genesisCodec, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import type { NodeModule } from "../../../../src/node/modules/nodeModule.js";
import { stakingModule } from "../../../../src/node/modules/staking/module.js";

const codec = genesisCodec;
const accounts = fixedAccounts(5);
const appState = () => devAppState({ accounts: 5, consensusKeyFill: 3 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

/** Runs the InitGenesis of bank and then of `modules` on an empty in-memory state. */

describe("staking genesis", () => {
  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  const valoper = (i: number) => bech32.encode("hubvaloper", bech32.toWords(new Uint8Array(20).fill(i + 1)));
  it("staking: addresses with their prefix, known validators, consistent statuses, valid params", () => {
    expectError(stakingModule, (s) => (s.validators[0].operator_address = accounts[0]!.address), "validators[0].operator_address: invalid address");
    expectError(stakingModule, (s) => (s.validators[1].status = "BOND_STATUS_BONDED"), "validators[1]: validator is bonded and jailed in genesis state");
    expectError(
      stakingModule,
      (s) => (s.validators[1].consensus_pubkey = s.validators[0].consensus_pubkey),
      "validators[1].consensus_pubkey: duplicate validator",
    );
    expectError(
      stakingModule,
      (s) => (s.delegations[1].validator_address = valoper(4)),
      `delegations[1].validator_address: validator ${valoper(4)} is not in validators`,
    );
    expectError(stakingModule, (s) => (s.redelegations[0].delegator_address = valoper(1)), "redelegations[0].delegator_address: invalid address");
    expectError(stakingModule, (s) => (s.params.bond_denom = ""), "params.bond_denom: bond denom cannot be blank");
    expectError(
      stakingModule,
      (s) => (s.validators[0].commission.commission_rates.rate = "0.300000000000000000"),
      "validators[0].commission.commission_rates.rate: commission cannot be more than the max rate",
    );
  });

  it("reads and writes Dec values of bytes fields as decimals, as the real genesis and gateway do", () => {
    const type = codec.type("core.slashing.v1beta1.Params");
    const parsed = codec.parser.parse(type, { min_signed_per_window: "0.05", slash_fraction_downtime: "0.000100000000000000" });
    expect(new TextDecoder().decode(parsed.min_signed_per_window as Uint8Array)).to.equal("50000000000000000");
    const rendered = codec.renderer.render(type, type.decode(type.encode(parsed).finish()));
    expect(rendered).to.include({
      min_signed_per_window: "0.050000000000000000",
      slash_fraction_downtime: "0.000100000000000000",
      slash_fraction_double_sign: "0.000000000000000000",
    });
    const staking = codec.parser.parse(codec.type("core.staking.v1beta1.GenesisState"), { last_total_power: "148500" });
    expect(new TextDecoder().decode(staking.last_total_power as Uint8Array)).to.equal("148500");
  });
});
