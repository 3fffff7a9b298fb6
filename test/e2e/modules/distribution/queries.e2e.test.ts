import { expect } from "chai";
import { bech32 } from "bech32";
import { byAddressBytes, useStartedStakingDevChain } from "../../../helpers/stakingDevChain.js";

/** The distribution routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: distribution routes", function () {
  this.timeout(120_000);
  const { chain, acc, ok, fails } = useStartedStakingDevChain();

  const uhub = (amount: string) => ({ denom: "uhub", amount });
  const valoper = (account: string) => bech32.encode("hubvaloper", bech32.decode(account).words);

  const rewardA0 = "2980000.082291176000000000";
  const rewardA1 = "1490000.041175388000822911";

  it("serves the params and the community pool", async () => {
    expect(await ok("/core/distribution/v1beta1/params")).to.deep.equal({
      params: {
        community_tax: "0.020000000000000000",
        base_proposer_reward: "0.010000000000000000",
        bonus_proposer_reward: "0.040000000000000000",
        withdraw_addr_enabled: true,
      },
    });
    expect(await ok("/core/distribution/v1beta1/community_pool")).to.deep.equal({ pool: [uhub("2500000.750000000000000000")] });
  });

  it("serves outstanding rewards and commission of a validator (empty for one without)", async () => {
    expect(await ok(`/core/distribution/v1beta1/validators/${chain.a.operator}/outstanding_rewards`)).to.deep.equal({
      rewards: { rewards: [uhub("4967000.623466789000000000")] },
    });
    expect(await ok(`/core/distribution/v1beta1/validators/${chain.b.operator}/outstanding_rewards`)).to.deep.equal({ rewards: { rewards: [] } });
    expect(await ok(`/core/distribution/v1beta1/validators/${chain.a.operator}/commission`)).to.deep.equal({
      commission: { commission: [uhub("497000.500000000000000000")] },
    });
    await fails(`/core/distribution/v1beta1/validators/${acc[0]}/commission`, 400, "expected hubvaloper");
  });

  it("serves the slashes of a validator within a period range", async () => {
    expect(await ok(`/core/distribution/v1beta1/validators/${chain.a.operator}/slashes?starting_height=1&ending_height=10`)).to.deep.equal({
      slashes: [{ validator_period: "3", fraction: "0.010000000000000000" }],
      pagination: { next_key: null, total: "1" },
    });
    // the real query compares the bounds with each event's period: period 3 is outside [4, 10]
    expect((await ok(`/core/distribution/v1beta1/validators/${chain.a.operator}/slashes?starting_height=4&ending_height=10`)).slashes).to.deep.equal([]);
    await fails(
      `/core/distribution/v1beta1/validators/${chain.a.operator}/slashes?starting_height=10&ending_height=1`,
      400,
      "starting height greater than ending height (10 > 1)",
    );
  });

  it("computes the rewards of one delegation across the slash; 404 without delegation or validator", async () => {
    expect(await ok(`/core/distribution/v1beta1/delegators/${acc[0]}/rewards/${chain.a.operator}`)).to.deep.equal({ rewards: [uhub(rewardA0)] });
    expect(await ok(`/core/distribution/v1beta1/delegators/${acc[1]}/rewards/${chain.a.operator}`)).to.deep.equal({ rewards: [uhub(rewardA1)] });
    expect(await ok(`/core/distribution/v1beta1/delegators/${acc[1]}/rewards/${chain.b.operator}`)).to.deep.equal({ rewards: [] });
    await fails(`/core/distribution/v1beta1/delegators/${acc[4]}/rewards/${chain.a.operator}`, 404, "delegation does not exist");
    const unknown = valoper(acc[4]!);
    await fails(`/core/distribution/v1beta1/delegators/${acc[1]}/rewards/${unknown}`, 404, `${unknown}: validator does not exist`);
  });

  it("sums the rewards of all delegations of a delegator", async () => {
    const rewards = byAddressBytes(
      [
        { validator_address: chain.a.operator, reward: [uhub(rewardA1)] },
        { validator_address: chain.b.operator, reward: [] },
      ],
      (r) => r.validator_address,
    );
    expect(await ok(`/core/distribution/v1beta1/delegators/${acc[1]}/rewards`)).to.deep.equal({ rewards, total: [uhub(rewardA1)] });
    expect(await ok(`/core/distribution/v1beta1/delegators/${acc[4]}/rewards`)).to.deep.equal({ rewards: [], total: [] });
  });

  it("serves the validators and the withdraw address of a delegator", async () => {
    const validators = byAddressBytes([chain.a.operator, chain.b.operator], (v) => v);
    expect(await ok(`/core/distribution/v1beta1/delegators/${acc[1]}/validators`)).to.deep.equal({ validators });
    expect(await ok(`/core/distribution/v1beta1/delegators/${acc[1]}/withdraw_address`)).to.deep.equal({ withdraw_address: acc[3] });
    expect(await ok(`/core/distribution/v1beta1/delegators/${acc[0]}/withdraw_address`)).to.deep.equal({ withdraw_address: acc[0] });
  });
});
