import { decodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVReader } from "../../store/kv.js";
import type { ModuleContext } from "../nodeModule.js";
import {
  DEC_ONE,
  decCoinsAdd,
  decCoinsFromProto,
  decCoinsMulDecTruncate,
  decCoinsQuoDecTruncate,
  decCoinsSub,
  decFromInt,
  decFromWire,
  decMulTruncate,
  type DecCoin,
} from "../shared/decMath.js";
import { operatorBytes, tokensFromShares, validatorTokens } from "../staking/keeper.js";
import { currentRewardsKey, heightBytes, historicalRewardsKey, slashEventHeight, slashEventsPrefix, startingInfoKey } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";

const T = {
  historical: "core.distribution.v1beta1.ValidatorHistoricalRewards",
  current: "core.distribution.v1beta1.ValidatorCurrentRewards",
  startingInfo: "core.distribution.v1beta1.DelegatorStartingInfo",
  slashEvent: "core.distribution.v1beta1.ValidatorSlashEvent",
};

async function read(store: KVReader, key: Uint8Array, type: string, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(key);
  return bytes ? ctx.codec.type(type).decode(bytes) : {};
}

/** The 3e-18 of rounding slack the real calculation tolerates between the accumulated and the current stake. */
const STAKE_MARGIN = 3n;

/**
 * The rewards a delegation has accrued, as the real F1 calculation computes
 * them in the DelegationRewards query (x/distribution keeper/delegation.go):
 * the validator's period is closed virtually (current rewards ÷ tokens added
 * to the last cumulative ratio, truncated), then the stake earns the ratio
 * difference between periods, reduced by each slash in between.
 */
export async function delegationRewards(
  dist: KVReader,
  validator: ProtoMessage,
  delegation: ProtoMessage,
  height: number,
  ctx: ModuleContext,
): Promise<DecCoin[]> {
  const operator = operatorBytes(validator, ctx);
  const delegator = decodeBech32Address(String(delegation.delegator_address), ctx.chain.bech32Prefix, "delegator_address");
  const ratio = await periodRatios(dist, validator, operator, ctx);
  const starting = await read(dist, startingInfoKey(operator, delegator), T.startingInfo, ctx);
  const startingHeight = BigInt(fieldText(starting.height, "0"));
  if (startingHeight === BigInt(height)) return []; // started this height, no rewards yet
  let startingPeriod = BigInt(fieldText(starting.previous_period, "0"));
  let stake = decFromWire(starting.stake as string);
  let rewards: DecCoin[] = [];
  const between = async (from: bigint, to: bigint, amount: bigint) => {
    const difference = decCoinsSub(await ratio.at(to), await ratio.at(from));
    return decCoinsMulDecTruncate(difference, amount);
  };
  if (BigInt(height) > startingHeight) {
    const slashType = ctx.codec.type(T.slashEvent);
    for await (const [key, value] of dist.iterate(slashEventsPrefix(operator), heightBytes(startingHeight))) {
      if (slashEventHeight(key) > BigInt(height)) break;
      const event = slashType.decode(value) as unknown as ProtoMessage;
      const endingPeriod = BigInt(fieldText(event.validator_period, "0"));
      if (endingPeriod > startingPeriod) {
        rewards = decCoinsAdd(rewards, await between(startingPeriod, endingPeriod, stake));
        stake = decMulTruncate(stake, DEC_ONE - decFromWire(event.fraction as string));
        startingPeriod = endingPeriod;
      }
    }
  }
  const currentStake = tokensFromShares(validator, decFromWire(delegation.shares as string));
  if (stake > currentStake) {
    if (stake > currentStake + STAKE_MARGIN) {
      throw new Error(`calculated final stake for delegator ${String(delegation.delegator_address)} greater than current stake`);
    }
    stake = currentStake;
  }
  return decCoinsAdd(rewards, await between(startingPeriod, ratio.endingPeriod, stake));
}

/**
 * The cumulative reward ratio of each period of a validator, with the current
 * period closed as IncrementValidatorPeriod would close it (without writing).
 */
async function periodRatios(dist: KVReader, validator: ProtoMessage, operator: Uint8Array, ctx: ModuleContext) {
  const current = await read(dist, currentRewardsKey(operator), T.current, ctx);
  const endingPeriod = BigInt(fieldText(current.period, "0"));
  const stored = async (period: bigint) =>
    decCoinsFromProto((await read(dist, historicalRewardsKey(operator, period), T.historical, ctx)).cumulative_reward_ratio);
  const tokens = validatorTokens(validator);
  // a validator without tokens sends its current rewards to the community pool instead
  const currentRatio = tokens === 0n ? [] : decCoinsQuoDecTruncate(decCoinsFromProto(current.rewards), decFromInt(tokens));
  const endingRatio = decCoinsAdd(await stored(endingPeriod - 1n), currentRatio);
  return {
    endingPeriod,
    at: async (period: bigint) => (period === endingPeriod ? endingRatio : stored(period)),
  };
}
