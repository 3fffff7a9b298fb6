import { expect } from "chai";
import { bech32 } from "bech32";
import { DAY, byAddressBytes, shifted, useStartedStakingDevChain } from "../../../helpers/stakingDevChain.js";

/** The staking routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: staking routes", function () {
  this.timeout(120_000);
  const { chain, acc, ok, fails } = useStartedStakingDevChain();

  const uhub = (amount: string) => ({ denom: "uhub", amount });
  const valoper = (account: string) => bech32.encode("hubvaloper", bech32.decode(account).words);

  const validatorA = () => ({
    operator_address: chain.a.operator,
    consensus_pubkey: { "@type": "/core.crypto.ed25519.PubKey", key: chain.a.consensusKey },
    jailed: false,
    status: "BOND_STATUS_BONDED",
    tokens: "148500000001",
    delegator_shares: "150000000001.000000000000000000",
    description: { moniker: "validator-a", identity: "", website: "", security_contact: "", details: "The development node's own validator" },
    unbonding_height: "0",
    unbonding_time: "1970-01-01T00:00:00Z",
    commission: {
      commission_rates: { rate: "0.100000000000000000", max_rate: "0.200000000000000000", max_change_rate: "0.010000000000000000" },
      update_time: shifted(chain.genesisTime, -30 * DAY),
    },
    min_self_delegation: "1",
  });
  const validatorB = () => ({
    operator_address: chain.b.operator,
    consensus_pubkey: { "@type": "/core.crypto.ed25519.PubKey", key: chain.b.consensusKey },
    jailed: true,
    status: "BOND_STATUS_UNBONDED",
    tokens: "10000500000",
    delegator_shares: "10000500000.000000000000000000",
    description: { moniker: "validator-b", identity: "", website: "", security_contact: "", details: "Jailed for double signing" },
    unbonding_height: "0",
    unbonding_time: shifted(chain.genesisTime, -DAY),
    commission: {
      commission_rates: { rate: "0.050000000000000000", max_rate: "0.100000000000000000", max_change_rate: "0.010000000000000000" },
      update_time: shifted(chain.genesisTime, -30 * DAY),
    },
    min_self_delegation: "1",
  });
  const bothValidators = () => byAddressBytes([validatorA(), validatorB()], (v) => v.operator_address);
  const delegation = (delegator: string, validator: string, shares: string, balance: string) => ({
    delegation: { delegator_address: delegator, validator_address: validator, shares },
    balance: uhub(balance),
  });
  const unbonding = () => ({
    delegator_address: acc[1],
    validator_address: chain.a.operator,
    entries: [{ creation_height: "0", completion_time: shifted(chain.genesisTime, 21 * DAY), initial_balance: "5000000000", balance: "5000000000" }],
  });
  const redelegation = () => ({
    redelegation: { delegator_address: acc[1], validator_src_address: chain.a.operator, validator_dst_address: chain.b.operator, entries: [] },
    entries: [
      {
        redelegation_entry: {
          creation_height: "0",
          completion_time: shifted(chain.genesisTime, 20 * DAY),
          initial_balance: "10000000000",
          shares_dst: "10000000000.000000000000000000",
        },
        balance: "10000000000",
      },
    ],
  });
  describe("staking", () => {
    it("lists the validators, filtered by status, and rejects an unknown status", async () => {
      expect(await ok("/core/staking/v1beta1/validators")).to.deep.equal({ validators: bothValidators(), pagination: { next_key: null, total: "2" } });
      expect((await ok("/core/staking/v1beta1/validators?status=BOND_STATUS_BONDED")).validators).to.deep.equal([validatorA()]);
      expect((await ok("/core/staking/v1beta1/validators?status=BOND_STATUS_UNBONDED")).validators).to.deep.equal([validatorB()]);
      expect(await ok("/core/staking/v1beta1/validators?status=BOND_STATUS_UNBONDING")).to.deep.equal({
        validators: [],
        pagination: { next_key: null, total: "0" },
      });
      await fails("/core/staking/v1beta1/validators?status=bonded", 400, "invalid validator status bonded");
    });

    it("pages through the validators by key and by offset", async () => {
      const [first, second] = bothValidators();
      const page1 = await ok("/core/staking/v1beta1/validators?pagination.limit=1");
      expect(page1.validators).to.deep.equal([first]);
      expect(page1.pagination.total).to.equal("0");
      const key = page1.pagination.next_key as string;
      // the rest of the next validator's key: its operator address as it is (v0.41; v0.43 put a length byte in front)
      expect(Buffer.from(key, "base64")).to.deep.equal(Buffer.from(bech32.fromWords(bech32.decode(second!.operator_address).words)));
      const page2 = await ok(`/core/staking/v1beta1/validators?pagination.limit=1&pagination.key=${encodeURIComponent(key)}`);
      expect(page2).to.deep.equal({ validators: [second], pagination: { next_key: null, total: "0" } });
      const byOffset = await ok("/core/staking/v1beta1/validators?pagination.limit=1&pagination.offset=1&pagination.count_total=true");
      expect(byOffset).to.deep.equal({ validators: [second], pagination: { next_key: null, total: "2" } });
    });

    it("serves one validator; 404 for an unknown one, 400 for an account address", async () => {
      expect(await ok(`/core/staking/v1beta1/validators/${chain.a.operator}`)).to.deep.equal({ validator: validatorA() });
      const unknown = valoper(acc[4]!);
      await fails(`/core/staking/v1beta1/validators/${unknown}`, 404, `validator ${unknown} not found`);
      await fails(`/core/staking/v1beta1/validators/${acc[0]}`, 400, "invalid Bech32 prefix; expected hubvaloper, got hub");
    });

    it("serves the delegations of a validator with balances from shares, over two pages", async () => {
      const expected = byAddressBytes(
        [
          delegation(acc[0]!, chain.a.operator, "100000000000.000000000000000000", "99000000000"),
          delegation(acc[1]!, chain.a.operator, "50000000001.000000000000000000", "49500000000"),
        ],
        (d) => d.delegation.delegator_address,
      );
      expect(await ok(`/core/staking/v1beta1/validators/${chain.a.operator}/delegations`)).to.deep.equal({
        delegation_responses: expected,
        pagination: { next_key: null, total: "2" },
      });
      const page1 = await ok(`/core/staking/v1beta1/validators/${chain.a.operator}/delegations?pagination.limit=1`);
      expect(page1.delegation_responses).to.deep.equal([expected[0]]);
      const page2 = await ok(
        `/core/staking/v1beta1/validators/${chain.a.operator}/delegations?pagination.limit=1&pagination.key=${encodeURIComponent(page1.pagination.next_key)}`,
      );
      expect(page2.delegation_responses).to.deep.equal([expected[1]]);
      expect(page2.pagination.next_key).to.equal(null);
    });

    it("serves the unbonding delegations of a validator", async () => {
      expect(await ok(`/core/staking/v1beta1/validators/${chain.a.operator}/unbonding_delegations`)).to.deep.equal({
        unbonding_responses: [unbonding()],
        pagination: { next_key: null, total: "1" },
      });
      expect((await ok(`/core/staking/v1beta1/validators/${chain.b.operator}/unbonding_delegations`)).unbonding_responses).to.deep.equal([]);
    });

    it("serves one delegation and one unbonding delegation; 404 when there is none", async () => {
      expect(await ok(`/core/staking/v1beta1/validators/${chain.a.operator}/delegations/${acc[1]}`)).to.deep.equal({
        delegation_response: delegation(acc[1]!, chain.a.operator, "50000000001.000000000000000000", "49500000000"),
      });
      await fails(
        `/core/staking/v1beta1/validators/${chain.a.operator}/delegations/${acc[4]}`,
        404,
        `delegation with delegator ${acc[4]} not found for validator ${chain.a.operator}`,
      );
      expect(await ok(`/core/staking/v1beta1/validators/${chain.a.operator}/delegations/${acc[1]}/unbonding_delegation`)).to.deep.equal({
        unbond: unbonding(),
      });
      await fails(
        `/core/staking/v1beta1/validators/${chain.b.operator}/delegations/${acc[1]}/unbonding_delegation`,
        404,
        `unbonding delegation with delegator ${acc[1]} not found for validator ${chain.b.operator}`,
      );
    });

    it("serves the delegations of a delegator; 404 for an address without any", async () => {
      const expected = byAddressBytes(
        [
          delegation(acc[1]!, chain.a.operator, "50000000001.000000000000000000", "49500000000"),
          delegation(acc[1]!, chain.b.operator, "10000000000.000000000000000000", "10000000000"),
        ],
        (d) => d.delegation.validator_address,
      );
      expect(await ok(`/core/staking/v1beta1/delegations/${acc[1]}`)).to.deep.equal({
        delegation_responses: expected,
        pagination: { next_key: null, total: "2" },
      });
      const offset = await ok(`/core/staking/v1beta1/delegations/${acc[1]}?pagination.offset=1&pagination.limit=1`);
      expect(offset.delegation_responses).to.deep.equal([expected[1]]);
      await fails(`/core/staking/v1beta1/delegations/${acc[4]}`, 404, `unable to find delegations for address ${acc[4]}`);
    });

    it("serves the unbonding delegations and the redelegations of a delegator", async () => {
      expect(await ok(`/core/staking/v1beta1/delegators/${acc[1]}/unbonding_delegations`)).to.deep.equal({
        unbonding_responses: [unbonding()],
        pagination: { next_key: null, total: "1" },
      });
      expect((await ok(`/core/staking/v1beta1/delegators/${acc[0]}/unbonding_delegations`)).unbonding_responses).to.deep.equal([]);
      expect(await ok(`/core/staking/v1beta1/delegators/${acc[1]}/redelegations`)).to.deep.equal({
        redelegation_responses: [redelegation()],
        pagination: { next_key: null, total: "1" },
      });
      const one = await ok(
        `/core/staking/v1beta1/delegators/${acc[1]}/redelegations?src_validator_addr=${chain.a.operator}&dst_validator_addr=${chain.b.operator}`,
      );
      expect(one).to.deep.equal({ redelegation_responses: [redelegation()], pagination: null });
      await fails(
        `/core/staking/v1beta1/delegators/${acc[1]}/redelegations?src_validator_addr=${chain.b.operator}&dst_validator_addr=${chain.a.operator}`,
        404,
        `redelegation not found for delegator address ${acc[1]} from validator address ${chain.b.operator}`,
      );
    });

    it("serves the validators of a delegator, over two pages, and one delegator-validator pair", async () => {
      const expected = bothValidators();
      expect(await ok(`/core/staking/v1beta1/delegators/${acc[1]}/validators`)).to.deep.equal({
        validators: expected,
        pagination: { next_key: null, total: "2" },
      });
      const page1 = await ok(`/core/staking/v1beta1/delegators/${acc[1]}/validators?pagination.limit=1`);
      const page2 = await ok(
        `/core/staking/v1beta1/delegators/${acc[1]}/validators?pagination.limit=1&pagination.key=${encodeURIComponent(page1.pagination.next_key)}`,
      );
      expect([...page1.validators, ...page2.validators]).to.deep.equal(expected);
      expect(await ok(`/core/staking/v1beta1/delegators/${acc[1]}/validators/${chain.b.operator}`)).to.deep.equal({ validator: validatorB() });
      await fails(`/core/staking/v1beta1/delegators/${acc[4]}/validators/${chain.a.operator}`, 404, "no delegation for (address, validator) tuple");
    });

    it("serves the historical info of the genesis height and 404 for others", async () => {
      const body = await ok("/core/staking/v1beta1/historical_info/1");
      const consensus = Buffer.from(chain.a.consensusAddressBytes).toString("base64");
      expect(body.hist.header).to.include({ chain_id: "devnet-1", height: "1", time: shifted(chain.genesisTime, 0), proposer_address: consensus });
      expect(body.hist.valset).to.deep.equal([validatorA()]);
      await fails("/core/staking/v1beta1/historical_info/2", 404, "historical info for height 2 not found");
      await fails("/core/staking/v1beta1/historical_info/-1", 400, "height cannot be negative");
    });

    it("serves the pool from the pool accounts and the params", async () => {
      expect(await ok("/core/staking/v1beta1/pool")).to.deep.equal({ pool: { not_bonded_tokens: "15000500000", bonded_tokens: "148500000001" } });
      expect(await ok("/core/staking/v1beta1/params")).to.deep.equal({
        params: { unbonding_time: "1814400s", max_validators: 100, max_entries: 7, historical_entries: 10000, bond_denom: "uhub" },
      });
    });
  });

  it("serves the params of both modules through x/params as amino JSON", async () => {
    const param = async (subspace: string, key: string) => (await ok(`/core/params/v1beta1/params?subspace=${subspace}&key=${key}`)).param.value;
    expect(await param("staking", "UnbondingTime")).to.equal('"1814400000000000"');
    expect(await param("staking", "MaxValidators")).to.equal("100");
    expect(await param("staking", "MaxEntries")).to.equal("7");
    expect(await param("staking", "HistoricalEntries")).to.equal("10000");
    expect(await param("staking", "BondDenom")).to.equal('"uhub"');
    expect(await param("distribution", "communitytax")).to.equal('"0.020000000000000000"');
    expect(await param("distribution", "baseproposerreward")).to.equal('"0.010000000000000000"');
    expect(await param("distribution", "bonusproposerreward")).to.equal('"0.040000000000000000"');
    expect(await param("distribution", "withdrawaddrenabled")).to.equal("true");
  });
});
