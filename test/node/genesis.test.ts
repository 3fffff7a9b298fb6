import { expect } from "chai";
import { devAppState, genesisCodec, TEST_CHAIN, type GenesisJson } from "../helpers/moduleGenesis.js";
import { distributionModule } from "../../src/node/modules/distribution/module.js";
import { evidenceModule } from "../../src/node/modules/evidence/module.js";
import { govModule } from "../../src/node/modules/gov/module.js";
import { paramSubspacesOf, type ExecContext, type NodeModule } from "../../src/node/modules/nodeModule.js";
import { slashingModule } from "../../src/node/modules/slashing/module.js";
import { stakingModule } from "../../src/node/modules/staking/module.js";
import { bankModule } from "../../src/node/modules/bank/module.js";
import { moduleAddress } from "../../src/codec/addresses.js";
import { CacheLayer } from "../../src/node/store/cacheLayer.js";
import { ModuleStore } from "../../src/node/store/moduleStore.js";
import { GasMeter } from "../../src/node/tx/gasMeter.js";

const codec = genesisCodec;
const chain = TEST_CHAIN;
const appState = () => devAppState({ accounts: 5, consensusKeyFill: 3 });
type Json = GenesisJson;

const MODULES = [stakingModule, slashingModule, distributionModule, evidenceModule, govModule];

const REAL_DEFAULTS: Json = {
  staking: {
    params: { unbonding_time: "1814400s", max_validators: 100, max_entries: 7, historical_entries: 10000, bond_denom: "uhub" },
    last_total_power: "0",
    last_validator_powers: [],
    validators: [],
    delegations: [],
    unbonding_delegations: [],
    redelegations: [],
    exported: false,
  },
  slashing: {
    params: {
      signed_blocks_window: "100",
      min_signed_per_window: "0.500000000000000000",
      downtime_jail_duration: "600s",
      slash_fraction_double_sign: "0.050000000000000000",
      slash_fraction_downtime: "0.010000000000000000",
    },
    signing_infos: [],
    missed_blocks: [],
  },
  distribution: {
    params: {
      community_tax: "0.020000000000000000",
      base_proposer_reward: "0.010000000000000000",
      bonus_proposer_reward: "0.040000000000000000",
      withdraw_addr_enabled: true,
    },
    fee_pool: { community_pool: [] },
    delegator_withdraw_infos: [],
    previous_proposer: "",
    outstanding_rewards: [],
    validator_accumulated_commissions: [],
    validator_historical_rewards: [],
    validator_current_rewards: [],
    delegator_starting_infos: [],
    validator_slash_events: [],
  },
  evidence: { evidence: [] },
  gov: {
    starting_proposal_id: "1",
    deposits: [],
    votes: [],
    proposals: [],
    deposit_params: { min_deposit: [{ denom: "uhub", amount: "10000000" }], max_deposit_period: "172800s" },
    voting_params: { voting_period: "172800s" },
    tally_params: { quorum: "0.334000000000000000", threshold: "0.500000000000000000", veto_threshold: "0.334000000000000000" },
  },
};

/** Runs the InitGenesis of bank and then of `modules` on an empty in-memory state. */
async function initOnEmptyState(states: Json, modules: NodeModule[]): Promise<{ context: (module: string) => ExecContext }> {
  const empty = { get: async () => undefined, async *iterate() {} };
  const layer = new CacheLayer(empty);
  const context = (module: string): ExecContext => ({
    chain,
    codec,
    height: 1,
    time: new Date("2024-01-01T00:00:00Z"),
    gas: new GasMeter(),
    store: new ModuleStore(layer, module),
    storeOf: (name) => new ModuleStore(layer, name),
    emit: () => undefined,
    paramSubspaces: paramSubspacesOf(modules),
  });
  for (const module of [bankModule, ...modules]) {
    const state = codec.parser.parse(codec.type(module.genesisType), states[module.name] ?? {});
    module.validateGenesis(state, { chain, codec });
    await module.initGenesis(state, context(module.name));
  }
  return { context };
}

describe("genesis import", () => {
  it("loads the default genesis of a real v0.41 chain", async () => {
    const states = { ...REAL_DEFAULTS, bank: { params: { default_send_enabled: true }, balances: [], supply: [], denom_metadata: [] } };
    await initOnEmptyState(states, MODULES);
  });

  it("takes the validator set of a genesis that is not exported from its bonded validators, and checks the pools", async () => {
    const state = appState();
    const staking = { ...state.staking, exported: false, last_validator_powers: [], last_total_power: "0" };
    const { context } = await initOnEmptyState({ ...state, staking }, [stakingModule]);
    const ctx = context("staking");
    const set = await stakingModule.validatorSet!(ctx.store, ctx);
    expect(set).to.deep.equal([{ publicKey: new Uint8Array(32).fill(3), power: 148_500n }]);

    const bank = structuredClone(state.bank) as Json;
    const pool = moduleAddress("hub", "bonded_tokens_pool");
    bank.balances = bank.balances.map((b: Json) => (b.address === pool ? { ...b, coins: [{ denom: "uhub", amount: "1" }] } : b));
    let error: Error | undefined;
    await initOnEmptyState({ ...state, bank }, [stakingModule]).catch((err: Error) => (error = err));
    expect(error?.message).to.equal("staking genesis: bonded pool balance is different from bonded coins: 1uhub <-> 148500000001uhub");
  });

  it("checks that the distribution and gov module accounts hold what their state says", async () => {
    for (const [name, message] of [
      ["distribution", "distribution genesis: distribution module balance does not match the module holdings: 7467002uhub <-> 7467001uhub"],
      ["gov", "gov genesis: expected module account was 15000001uhub but we got 15000000uhub"],
    ] as const) {
      const state = appState();
      const address = moduleAddress("hub", name);
      state.bank.balances = state.bank.balances.map((b: Json) =>
        b.address === address ? { ...b, coins: [{ denom: "uhub", amount: String(BigInt(b.coins[0].amount) + 1n) }] } : b,
      );
      let error: Error | undefined;
      await initOnEmptyState(state, MODULES).catch((err: Error) => (error = err));
      expect(error?.message).to.equal(message);
    }
  });
});
