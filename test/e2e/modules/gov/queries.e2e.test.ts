import { expect } from "chai";
import { DAY, byAddressBytes, shifted, useStartedStakingDevChain } from "../../../helpers/stakingDevChain.js";

/** The gov routes over HTTP against `chain-rest start`, with the values of the development genesis. */
describe("e2e: gov routes", function () {
  this.timeout(120_000);
  const { chain, acc, ok, fails } = useStartedStakingDevChain();

  const uhub = (amount: string) => ({ denom: "uhub", amount });
  const at = (days: number) => shifted(chain.genesisTime, days * DAY);
  describe("gov", () => {
    const proposal1 = () => ({
      proposal_id: "1",
      content: {
        "@type": "/core.gov.v1beta1.TextProposal",
        title: "Launch the development chain",
        description: "Agree on the parameters of the development chain.",
      },
      status: "PROPOSAL_STATUS_PASSED",
      final_tally_result: { yes: "100000000000", abstain: "0", no: "0", no_with_veto: "0" },
      submit_time: at(-12),
      deposit_end_time: at(-10),
      total_deposit: [uhub("10000000")],
      voting_start_time: at(-12),
      voting_end_time: at(-10),
    });
    const proposal2 = () => ({
      proposal_id: "2",
      content: { "@type": "/core.gov.v1beta1.TextProposal", title: "Raise the community tax", description: "Raise the community tax from 2% to 3%." },
      status: "PROPOSAL_STATUS_VOTING_PERIOD",
      final_tally_result: { yes: "0", abstain: "0", no: "0", no_with_veto: "0" },
      submit_time: at(-1),
      deposit_end_time: at(1),
      total_deposit: [uhub("15000000")],
      voting_start_time: at(-1),
      voting_end_time: at(1),
    });
    const deposits = () =>
      byAddressBytes(
        [
          { proposal_id: "2", depositor: acc[0]!, amount: [uhub("10000000")] },
          { proposal_id: "2", depositor: acc[1]!, amount: [uhub("5000000")] },
        ],
        (d) => d.depositor,
      );
    const votes = () =>
      byAddressBytes(
        [
          { proposal_id: "2", voter: acc[1]!, option: "VOTE_OPTION_YES" },
          { proposal_id: "2", voter: acc[0]!, option: "VOTE_OPTION_NO" },
        ],
        (v) => v.voter,
      );

    it("serves each params type with the other two left empty; 400 for another type", async () => {
      const empty = {
        voting_params: { voting_period: "0s" },
        deposit_params: { min_deposit: [], max_deposit_period: "0s" },
        tally_params: { quorum: "0.000000000000000000", threshold: "0.000000000000000000", veto_threshold: "0.000000000000000000" },
      };
      expect(await ok("/core/gov/v1beta1/params/voting")).to.deep.equal({ ...empty, voting_params: { voting_period: "172800s" } });
      expect(await ok("/core/gov/v1beta1/params/deposit")).to.deep.equal({
        ...empty,
        deposit_params: { min_deposit: [uhub("10000000")], max_deposit_period: "172800s" },
      });
      expect(await ok("/core/gov/v1beta1/params/tallying")).to.deep.equal({
        ...empty,
        tally_params: { quorum: "0.334000000000000000", threshold: "0.500000000000000000", veto_threshold: "0.334000000000000000" },
      });
      await fails("/core/gov/v1beta1/params/staking", 400, "staking is not a valid parameter type");
    });

    it("lists the proposals, filtered by status, voter and depositor", async () => {
      expect(await ok("/core/gov/v1beta1/proposals")).to.deep.equal({ proposals: [proposal1(), proposal2()], pagination: { next_key: null, total: "2" } });
      expect((await ok("/core/gov/v1beta1/proposals?proposal_status=PROPOSAL_STATUS_PASSED")).proposals).to.deep.equal([proposal1()]);
      expect((await ok("/core/gov/v1beta1/proposals?proposal_status=PROPOSAL_STATUS_VOTING_PERIOD")).proposals).to.deep.equal([proposal2()]);
      expect((await ok("/core/gov/v1beta1/proposals?proposal_status=PROPOSAL_STATUS_REJECTED")).proposals).to.deep.equal([]);
      expect((await ok(`/core/gov/v1beta1/proposals?voter=${acc[1]}`)).proposals).to.deep.equal([proposal2()]);
      expect((await ok(`/core/gov/v1beta1/proposals?voter=${acc[3]}`)).proposals).to.deep.equal([]);
      expect((await ok(`/core/gov/v1beta1/proposals?depositor=${acc[0]}&proposal_status=PROPOSAL_STATUS_VOTING_PERIOD`)).proposals).to.deep.equal([
        proposal2(),
      ]);
      await fails("/core/gov/v1beta1/proposals?voter=hubvaloper1xyz", 400, "voter");
    });

    it("pages through the proposals by key and by offset", async () => {
      const page1 = await ok("/core/gov/v1beta1/proposals?pagination.limit=1");
      expect(page1.proposals).to.deep.equal([proposal1()]);
      expect(Buffer.from(page1.pagination.next_key, "base64")).to.deep.equal(Buffer.from([0, 0, 0, 0, 0, 0, 0, 2]));
      const page2 = await ok(`/core/gov/v1beta1/proposals?pagination.limit=1&pagination.key=${encodeURIComponent(page1.pagination.next_key)}`);
      expect(page2).to.deep.equal({ proposals: [proposal2()], pagination: { next_key: null, total: "0" } });
      expect((await ok("/core/gov/v1beta1/proposals?pagination.limit=1&pagination.offset=1")).proposals).to.deep.equal([proposal2()]);
    });

    it("serves one proposal; 404 for an unknown id, 400 for id 0", async () => {
      expect(await ok("/core/gov/v1beta1/proposals/2")).to.deep.equal({ proposal: proposal2() });
      await fails("/core/gov/v1beta1/proposals/9", 404, "proposal 9 doesn't exist");
      await fails("/core/gov/v1beta1/proposals/0", 400, "proposal id can not be 0");
    });

    it("serves the deposits of a proposal, over two pages, and one deposit", async () => {
      expect(await ok("/core/gov/v1beta1/proposals/2/deposits")).to.deep.equal({ deposits: deposits(), pagination: { next_key: null, total: "2" } });
      const page1 = await ok("/core/gov/v1beta1/proposals/2/deposits?pagination.limit=1");
      const page2 = await ok(`/core/gov/v1beta1/proposals/2/deposits?pagination.limit=1&pagination.key=${encodeURIComponent(page1.pagination.next_key)}`);
      expect([...page1.deposits, ...page2.deposits]).to.deep.equal(deposits());
      expect((await ok("/core/gov/v1beta1/proposals/1/deposits")).deposits).to.deep.equal([]);
      expect(await ok(`/core/gov/v1beta1/proposals/2/deposits/${acc[0]}`)).to.deep.equal({
        deposit: { proposal_id: "2", depositor: acc[0], amount: [uhub("10000000")] },
      });
      await fails(`/core/gov/v1beta1/proposals/2/deposits/${acc[3]}`, 400, `depositer: ${acc[3]} not found for proposal: 2`);
    });

    it("serves the votes of a proposal, over two pages, and one vote", async () => {
      expect(await ok("/core/gov/v1beta1/proposals/2/votes")).to.deep.equal({ votes: votes(), pagination: { next_key: null, total: "2" } });
      const second = await ok("/core/gov/v1beta1/proposals/2/votes?pagination.limit=1&pagination.offset=1");
      expect(second.votes).to.deep.equal([votes()[1]]);
      expect(await ok(`/core/gov/v1beta1/proposals/2/votes/${acc[1]}`)).to.deep.equal({ vote: { proposal_id: "2", voter: acc[1], option: "VOTE_OPTION_YES" } });
      await fails(`/core/gov/v1beta1/proposals/2/votes/${acc[3]}`, 400, `voter: ${acc[3]} not found for proposal: 2`);
    });

    it("counts the tally of the proposal in its voting period and serves the stored tally of the passed one", async () => {
      // account 1: 50000000001 of A's 150000000001 shares of 148500000001 bonded tokens; account 0 (A's operator): 100000000000 shares
      expect(await ok("/core/gov/v1beta1/proposals/2/tally")).to.deep.equal({
        tally: { yes: "49500000000", abstain: "0", no: "99000000000", no_with_veto: "0" },
      });
      expect(await ok("/core/gov/v1beta1/proposals/1/tally")).to.deep.equal({ tally: { yes: "100000000000", abstain: "0", no: "0", no_with_veto: "0" } });
      await fails("/core/gov/v1beta1/proposals/9/tally", 404, "proposal 9 doesn't exist");
    });
  });

  it("serves the params of gov and slashing through x/params as amino JSON", async () => {
    const param = async (subspace: string, key: string) => (await ok(`/core/params/v1beta1/params?subspace=${subspace}&key=${key}`)).param.value;
    expect(await param("gov", "depositparams")).to.equal('{"min_deposit":[{"denom":"uhub","amount":"10000000"}],"max_deposit_period":"172800000000000"}');
    expect(await param("gov", "votingparams")).to.equal('{"voting_period":"172800000000000"}');
    expect(await param("gov", "tallyparams")).to.equal(
      '{"quorum":"0.334000000000000000","threshold":"0.500000000000000000","veto_threshold":"0.334000000000000000"}',
    );
    expect(await param("slashing", "SignedBlocksWindow")).to.equal('"100"');
    expect(await param("slashing", "MinSignedPerWindow")).to.equal('"0.500000000000000000"');
    expect(await param("slashing", "DowntimeJailDuration")).to.equal('"600000000000"');
    expect(await param("slashing", "SlashFractionDoubleSign")).to.equal('"0.050000000000000000"');
    expect(await param("slashing", "SlashFractionDowntime")).to.equal('"0.010000000000000000"');
  });
});
