import { formatDec } from "../../../codec/decimal.js";
import type { DevGenesisContext } from "../devGenesisContext.js";
import { decFromInt } from "../shared/decMath.js";
import { DEV_STAKE, devAddress, devValidators } from "../shared/devValidators.js";
import { DISTRIBUTION_ACCOUNT } from "./genesis.js";

/**
 * Reward state of the dev validators, consistent with the staking dev genesis:
 * both delegations to A started in period 2 (cumulative ratio 0); period 3
 * earned 0.00001 per token and was closed by the 1% slash; period 4 holds the
 * current, not yet distributed rewards. B has earned nothing. The module
 * account holds the outstanding rewards plus the community pool, truncated.
 */
const DEV_DISTRIBUTION = {
  communityPool: "2500000.750000000000000000",
  outstandingA: "4967000.623466789000000000",
  commissionA: "497000.500000000000000000",
  ratioPeriod3: "0.000010000000000000",
  currentRewardsA: "2970000.123456789000000000",
  slashFraction: "0.010000000000000000",
  /** trunc(outstandingA + communityPool) */
  moduleBalance: "7467001",
} as const;

export function distributionDevGenesis(ctx: DevGenesisContext): unknown {
  const { a, b } = devValidators(ctx);
  const delegator1 = devAddress(ctx, 1);
  ctx.fund(ctx.moduleAccount(DISTRIBUTION_ACCOUNT, []), [{ denom: ctx.denom, amount: DEV_DISTRIBUTION.moduleBalance }]);
  const coins = (amount: string) => [{ denom: ctx.denom, amount }];
  const historical = (validator: string, period: number, ratio: Array<{ denom: string; amount: string }>, references: number) => ({
    validator_address: validator,
    period: String(period),
    rewards: { cumulative_reward_ratio: ratio, reference_count: references },
  });
  const starting = (delegator: string, validator: string, period: number, stake: bigint) => ({
    delegator_address: delegator,
    validator_address: validator,
    starting_info: { previous_period: String(period), stake: formatDec(decFromInt(stake)), height: "0" },
  });
  return {
    params: {
      community_tax: "0.020000000000000000",
      base_proposer_reward: "0.010000000000000000",
      bonus_proposer_reward: "0.040000000000000000",
      withdraw_addr_enabled: true,
    },
    fee_pool: { community_pool: coins(DEV_DISTRIBUTION.communityPool) },
    delegator_withdraw_infos: [{ delegator_address: delegator1, withdraw_address: devAddress(ctx, 3) }],
    previous_proposer: a.consensusAddress,
    outstanding_rewards: [
      { validator_address: a.operatorAddress, outstanding_rewards: coins(DEV_DISTRIBUTION.outstandingA) },
      { validator_address: b.operatorAddress, outstanding_rewards: [] },
    ],
    validator_accumulated_commissions: [
      { validator_address: a.operatorAddress, accumulated: { commission: coins(DEV_DISTRIBUTION.commissionA) } },
      { validator_address: b.operatorAddress, accumulated: { commission: [] } },
    ],
    validator_historical_rewards: [
      historical(a.operatorAddress, 2, [], 2),
      historical(a.operatorAddress, 3, coins(DEV_DISTRIBUTION.ratioPeriod3), 2),
      historical(b.operatorAddress, 1, [], 1),
      historical(b.operatorAddress, 2, [], 2),
    ],
    validator_current_rewards: [
      { validator_address: a.operatorAddress, rewards: { rewards: coins(DEV_DISTRIBUTION.currentRewardsA), period: "4" } },
      { validator_address: b.operatorAddress, rewards: { rewards: [], period: "3" } },
    ],
    delegator_starting_infos: [
      starting(a.accountAddress, a.operatorAddress, 2, DEV_STAKE.selfDelegationA),
      starting(delegator1, a.operatorAddress, 2, DEV_STAKE.delegationA1),
      starting(b.accountAddress, b.operatorAddress, 1, DEV_STAKE.selfDelegationB),
      starting(delegator1, b.operatorAddress, 2, DEV_STAKE.redelegatedToB),
    ],
    validator_slash_events: [
      {
        validator_address: a.operatorAddress,
        height: "0",
        period: "3",
        validator_slash_event: { validator_period: "3", fraction: DEV_DISTRIBUTION.slashFraction },
      },
    ],
  };
}
