import { expect } from "chai";
import { bech32 } from "bech32";
import type { ProtoMessage } from "../../../src/codec/json/renderProto3.js";
import { devAppState, fixedAccounts, genesisCodec, TEST_CHAIN, validateModuleGenesis, type GenesisJson } from "../../helpers/moduleGenesis.js";
import { distributionModule } from "../../../src/node/modules/distribution/module.js";
import { evidenceModule } from "../../../src/node/modules/evidence/module.js";
import { govModule } from "../../../src/node/modules/gov/module.js";
import { tally } from "../../../src/node/modules/gov/tally.js";
import type { NodeModule } from "../../../src/node/modules/nodeModule.js";
import { slashingModule } from "../../../src/node/modules/slashing/module.js";
import { DEC_ONE, decMul, decQuo, decQuoTruncate, decMulTruncate } from "../../../src/node/modules/shared/decMath.js";
import { stakingModule } from "../../../src/node/modules/staking/module.js";
import { bankModule } from "../../../src/node/modules/bank/module.js";
import { moduleAddress } from "../../../src/codec/addresses.js";
import { CacheLayer } from "../../../src/node/store/cacheLayer.js";
import { ModuleStore } from "../../../src/node/store/moduleStore.js";
import { GasMeter } from "../../../src/node/tx/gasMeter.js";
import type { ExecContext } from "../../../src/node/modules/nodeModule.js";

const codec = genesisCodec;
const chain = TEST_CHAIN;
const accounts = fixedAccounts(5);
const appState = () => devAppState({ accounts: 5, consensusKeyFill: 3 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

const MODULES = [stakingModule, slashingModule, distributionModule, evidenceModule, govModule];

describe("staking, slashing, distribution, evidence and gov genesis", () => {
  it("writes a development genesis that validates", () => {
    const state = appState();
    for (const module of MODULES) expect(() => validate(module, state[module.name]), module.name).not.to.throw();
  });

  const expectError = (module: NodeModule, edit: (state: Json) => void, message: string) => {
    const state = appState()[module.name];
    edit(state);
    expect(() => validate(module, state)).to.throw(message);
  };
  const valoper = (i: number) => bech32.encode("hubvaloper", bech32.toWords(new Uint8Array(20).fill(i + 1)));

  it("staking: addresses with their prefix, known validators, consistent statuses, valid params", () => {
    expectError(stakingModule, (s) => (s.validators[0].operator_address = accounts[0]!.address), "validators[0].operator_address: invalid address");
    expectError(stakingModule, (s) => (s.validators[1].status = "BOND_STATUS_BONDED"), "validators[1]: validator is bonded and jailed in genesis state");
    expectError(stakingModule, (s) => (s.validators[1].consensus_pubkey = s.validators[0].consensus_pubkey), "validators[1].consensus_pubkey: duplicate validator");
    expectError(stakingModule, (s) => (s.delegations[1].validator_address = valoper(4)), `delegations[1].validator_address: validator ${valoper(4)} is not in validators`);
    expectError(stakingModule, (s) => (s.redelegations[0].delegator_address = valoper(1)), "redelegations[0].delegator_address: invalid address");
    expectError(stakingModule, (s) => (s.params.bond_denom = ""), "params.bond_denom: bond denom cannot be blank");
    expectError(stakingModule, (s) => (s.validators[0].commission.commission_rates.rate = "0.300000000000000000"), "validators[0].commission.commission_rates.rate: commission cannot be more than the max rate");
  });

  it("slashing: the real parameter bounds and consensus addresses", () => {
    expectError(slashingModule, (s) => (s.params.signed_blocks_window = "5"), "params.signed_blocks_window: signed blocks window must be at least 10, is 5");
    expectError(slashingModule, (s) => (s.params.slash_fraction_downtime = "1.5"), "params.slash_fraction_downtime: slashing fraction downtime must be between 0 and 1");
    expectError(slashingModule, (s) => (s.params.downtime_jail_duration = "30s"), "params.downtime_jail_duration: downtime unjail duration must be at least 1 minute");
    expectError(slashingModule, (s) => (s.signing_infos[1].address = accounts[1]!.address), "signing_infos[1].address: invalid address");
  });

  it("distribution: params, sorted coins and the addresses of every record", () => {
    expectError(distributionModule, (s) => (s.params.community_tax = "0.96"), "params: sum of base, bonus proposer rewards, and community tax cannot be greater than one: 1.010000000000000000");
    expectError(distributionModule, (s) => (s.delegator_withdraw_infos[0].withdraw_address = valoper(3)), "delegator_withdraw_infos[0].withdraw_address: invalid address");
    expectError(distributionModule, (s) => (s.fee_pool.community_pool = [{ denom: "uhub", amount: "1" }, { denom: "uatom", amount: "1" }]), "fee_pool.community_pool[1].denom: coins must be sorted");
    expectError(distributionModule, (s) => (s.validator_slash_events[0].validator_slash_event.fraction = "2"), "validator_slash_events[0].validator_slash_event.fraction: slash fraction must be between 0 and 1");
  });

  it("evidence: Equivocation only, passing ValidateBasic, each once", () => {
    expectError(evidenceModule, (s) => (s.evidence[0].power = "0"), "evidence[0].power: invalid equivocation validator power: 0");
    expectError(evidenceModule, (s) => s.evidence.push({ ...s.evidence[0] }), "evidence[1]: evidence with hash");
    expectError(evidenceModule, (s) => (s.evidence[0] = { "@type": "/core.gov.v1beta1.TextProposal", title: "x" }), 'evidence[0]: unsupported evidence type "/core.gov.v1beta1.TextProposal"');
  });

  it("gov: thresholds, known proposals, valid options, a starting id past every proposal", () => {
    expectError(govModule, (s) => (s.tally_params.threshold = "1.2"), "tally_params.threshold: governance vote threshold must be between 0 and 1, is 1.200000000000000000");
    expectError(govModule, (s) => (s.votes[0].proposal_id = "7"), "votes[0].proposal_id: proposal 7 is not in proposals");
    expectError(govModule, (s) => (s.votes[1].option = "VOTE_OPTION_UNSPECIFIED"), "votes[1].option: invalid vote option");
    expectError(govModule, (s) => (s.starting_proposal_id = "2"), "starting_proposal_id: must be greater than every proposal id (2), is 2");
    expectError(govModule, (s) => (s.deposits[0].depositor = "hub1xyz"), "deposits[0].depositor: invalid address");
  });

  it("reads and writes Dec values of bytes fields as decimals, as the real genesis and gateway do", () => {
    const type = codec.type("core.slashing.v1beta1.Params");
    const parsed = codec.parser.parse(type, { min_signed_per_window: "0.05", slash_fraction_downtime: "0.000100000000000000" });
    expect(new TextDecoder().decode(parsed.min_signed_per_window as Uint8Array)).to.equal("50000000000000000");
    const rendered = codec.renderer.render(type, type.decode(type.encode(parsed).finish()) as unknown as ProtoMessage);
    expect(rendered).to.include({ min_signed_per_window: "0.050000000000000000", slash_fraction_downtime: "0.000100000000000000", slash_fraction_double_sign: "0.000000000000000000" });
    const staking = codec.parser.parse(codec.type("core.staking.v1beta1.GenesisState"), { last_total_power: "148500" });
    expect(new TextDecoder().decode(staking.last_total_power as Uint8Array)).to.equal("148500");
  });
});

/** The default genesis of each module on a real v0.41 chain, with the neutral names. */
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
    params: { signed_blocks_window: "100", min_signed_per_window: "0.500000000000000000", downtime_jail_duration: "600s", slash_fraction_double_sign: "0.050000000000000000", slash_fraction_downtime: "0.010000000000000000" },
    signing_infos: [],
    missed_blocks: [],
  },
  distribution: {
    params: { community_tax: "0.020000000000000000", base_proposer_reward: "0.010000000000000000", bonus_proposer_reward: "0.040000000000000000", withdraw_addr_enabled: true },
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
  });
  for (const module of [bankModule, ...modules]) {
    const state = codec.parser.parse(codec.type(module.genesisType), states[module.name] ?? {}) as ProtoMessage;
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
      state.bank.balances = state.bank.balances.map((b: Json) => (b.address === address ? { ...b, coins: [{ denom: "uhub", amount: String(BigInt(b.coins[0].amount) + 1n) }] } : b));
      let error: Error | undefined;
      await initOnEmptyState(state, MODULES).catch((err: Error) => (error = err));
      expect(error?.message).to.equal(message);
    }
  });
});

describe("sdk.Dec arithmetic", () => {
  it("rounds half to even in Mul and Quo, truncates in MulTruncate and QuoTruncate", () => {
    expect(decQuo(2n * DEC_ONE, 3n * DEC_ONE)).to.equal(666_666_666_666_666_667n);
    expect(decQuoTruncate(2n * DEC_ONE, 3n * DEC_ONE)).to.equal(666_666_666_666_666_666n);
    expect(decMul(1n, DEC_ONE / 2n)).to.equal(0n); // 0.5e-18 rounds to the even 0
    expect(decMul(3n, DEC_ONE / 2n)).to.equal(2n); // 1.5e-18 rounds to the even 2
    expect(decMulTruncate(3n, DEC_ONE / 2n)).to.equal(1n);
    expect(decMul(-3n, DEC_ONE / 2n)).to.equal(-2n);
  });
});

describe("gov tally", () => {
  const validators = [
    { operator: "v1", bondedTokens: 1000n, delegatorShares: 1000n * DEC_ONE },
    { operator: "v2", bondedTokens: 500n, delegatorShares: 1000n * DEC_ONE },
  ];
  const own = { option: 3, operator: "v1", delegations: [{ validator: "v1", shares: 600n * DEC_ONE }] };
  const delegator = (option: number) => ({ option, operator: "d", delegations: [{ validator: "v1", shares: 400n * DEC_ONE }, { validator: "v2", shares: 1000n * DEC_ONE }] });

  it("gives a validator's vote the power of the delegators who did not vote", () => {
    expect(tally(validators, [own])).to.deep.equal({ yes: 0n, abstain: 0n, no: 1000n, noWithVeto: 0n });
  });

  it("lets a delegator's own vote override the validator's for its shares", () => {
    expect(tally(validators, [own, delegator(1)])).to.deep.equal({ yes: 900n, abstain: 0n, no: 600n, noWithVeto: 0n });
  });

  it("counts only bonded validators and truncates the totals", () => {
    const third = { operator: "v3", bondedTokens: 10n, delegatorShares: 3n * DEC_ONE };
    expect(tally([third], [{ option: 2, operator: "x", delegations: [{ validator: "v3", shares: DEC_ONE }, { validator: "unbonded", shares: DEC_ONE }] }])).to.deep.equal({
      yes: 0n,
      abstain: 3n, // 1/3 × 10 = 3.33...
      no: 0n,
      noWithVeto: 0n,
    });
  });
});
