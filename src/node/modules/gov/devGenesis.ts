import type { DevGenesisContext } from "../devGenesisContext.js";
import { days, devAddress } from "../shared/devValidators.js";
import { GOV_ACCOUNT } from "./genesis.js";

const DEV_GOV = {
  minDeposit: "10000000",
  depositAccount0: "10000000",
  depositAccount1: "5000000",
  passedYes: "100000000000",
} as const;

/**
 * Two text proposals: #1 passed ten days ago (deposits refunded, votes
 * removed, final tally stored); #2 is in its voting period until a day after
 * genesis, with deposits from accounts 0 and 1 (held by the gov module
 * account), a YES vote from account 1 and a NO vote from account 0, the
 * operator of validator A.
 */
export function govDevGenesis(ctx: DevGenesisContext): unknown {
  const account0 = devAddress(ctx, 0);
  const account1 = devAddress(ctx, 1);
  const deposits = BigInt(DEV_GOV.depositAccount0) + BigInt(DEV_GOV.depositAccount1);
  ctx.fund(ctx.moduleAccount(GOV_ACCOUNT, ["burner"]), [{ denom: ctx.denom, amount: deposits.toString() }]);
  const at = (offset: number) => new Date(ctx.genesisTime.getTime() + offset).toISOString();
  const coins = (amount: string) => [{ denom: ctx.denom, amount }];
  return {
    starting_proposal_id: "3",
    deposits: [
      { proposal_id: "2", depositor: account0, amount: coins(DEV_GOV.depositAccount0) },
      { proposal_id: "2", depositor: account1, amount: coins(DEV_GOV.depositAccount1) },
    ],
    votes: [
      { proposal_id: "2", voter: account1, option: "VOTE_OPTION_YES" },
      { proposal_id: "2", voter: account0, option: "VOTE_OPTION_NO" },
    ],
    proposals: [
      {
        proposal_id: "1",
        content: {
          "@type": "/core.gov.v1beta1.TextProposal",
          title: "Launch the development chain",
          description: "Agree on the parameters of the development chain.",
        },
        status: "PROPOSAL_STATUS_PASSED",
        final_tally_result: { yes: DEV_GOV.passedYes, abstain: "0", no: "0", no_with_veto: "0" },
        submit_time: at(-days(12)),
        deposit_end_time: at(-days(10)),
        total_deposit: coins(DEV_GOV.minDeposit),
        voting_start_time: at(-days(12)),
        voting_end_time: at(-days(10)),
      },
      {
        proposal_id: "2",
        content: { "@type": "/core.gov.v1beta1.TextProposal", title: "Raise the community tax", description: "Raise the community tax from 2% to 3%." },
        status: "PROPOSAL_STATUS_VOTING_PERIOD",
        final_tally_result: { yes: "0", abstain: "0", no: "0", no_with_veto: "0" },
        submit_time: at(-days(1)),
        deposit_end_time: at(days(1)),
        total_deposit: coins(deposits.toString()),
        voting_start_time: at(-days(1)),
        voting_end_time: at(days(1)),
      },
    ],
    deposit_params: { min_deposit: coins(DEV_GOV.minDeposit), max_deposit_period: "172800s" },
    voting_params: { voting_period: "172800s" },
    tally_params: { quorum: "0.334000000000000000", threshold: "0.500000000000000000", veto_threshold: "0.334000000000000000" },
  };
}
