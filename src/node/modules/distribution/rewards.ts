import { moduleAddress, bech32Prefixes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sendCoins, type Coin } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import {
  decCoinsAdd,
  decCoinsFromCoins,
  decCoinsIntersect,
  decCoinsQuoDecTruncate,
  decCoinsSplit,
  decCoinsSub,
  decFromInt,
  decFromWire,
  type DecCoin,
} from "../shared/decMath.js";
import { getDelegation, getValidator, operatorBytes, tokensFromSharesTruncated, validatorTokens } from "../staking/keeper.js";
import { delegationRewards } from "./keeper.js";
import { historicalRewardsKey, startingInfoKey } from "./keys.js";
import { DISTRIBUTION_ACCOUNT } from "./genesis.js";
import {
  distribution,
  getCommission,
  getCommunityPool,
  getCurrentRewards,
  getHistoricalRewards,
  getOutstanding,
  getStartingInfo,
  setCommission,
  setCommunityPool,
  setCurrentRewards,
  setHistoricalRewards,
  setOutstanding,
  setStartingInfo,
  withdrawAddressBytes,
} from "./state.js";
import { distributionError } from "./errors.js";
import { bech32Bytes } from "../shared/msgAddresses.js";
import { fieldText } from "../../../codec/fieldText.js";

/** The F1 bookkeeping of x/distribution (keeper/validator.go, delegation.go), run inside staking changes and Msgs. */

/** initializeValidator: period 0 with one reference, current period 1, nothing accumulated. */
export function initializeValidator(ctx: ExecContext, operator: Uint8Array): void {
  setHistoricalRewards(ctx, operator, 0n, { ratio: [], referenceCount: 1 });
  setCurrentRewards(ctx, operator, { rewards: [], period: 1n });
  setCommission(ctx, operator, []);
  setOutstanding(ctx, operator, []);
}

/**
 * IncrementValidatorPeriod: closes the current period into a new historical
 * entry (cumulative ratio + current rewards ÷ tokens, truncated; a validator
 * without tokens gives its current rewards to the community pool) and returns it.
 */
export async function incrementValidatorPeriod(ctx: ExecContext, validator: ProtoMessage): Promise<bigint> {
  const operator = operatorBytes(validator, ctx);
  const current = await getCurrentRewards(ctx, operator);
  let ratio: DecCoin[];
  if (validatorTokens(validator) === 0n) {
    setCommunityPool(ctx, decCoinsAdd(await getCommunityPool(ctx), current.rewards));
    setOutstanding(ctx, operator, decCoinsSub(await getOutstanding(ctx, operator), current.rewards));
    ratio = [];
  } else {
    ratio = decCoinsQuoDecTruncate(current.rewards, decFromInt(validatorTokens(validator)));
  }
  const previous = await getHistoricalRewards(ctx, operator, current.period - 1n);
  await decrementReferenceCount(ctx, operator, current.period - 1n);
  setHistoricalRewards(ctx, operator, current.period, { ratio: decCoinsAdd(previous.ratio, ratio), referenceCount: 1 });
  setCurrentRewards(ctx, operator, { rewards: [], period: current.period + 1n });
  return current.period;
}

async function incrementReferenceCount(ctx: ExecContext, operator: Uint8Array, period: bigint): Promise<void> {
  const historical = await getHistoricalRewards(ctx, operator, period);
  if (historical.referenceCount > 2) throw new Error("reference count should never exceed 2");
  setHistoricalRewards(ctx, operator, period, { ...historical, referenceCount: historical.referenceCount + 1 });
}

async function decrementReferenceCount(ctx: ExecContext, operator: Uint8Array, period: bigint): Promise<void> {
  const historical = await getHistoricalRewards(ctx, operator, period);
  if (historical.referenceCount === 0) throw new Error("cannot set negative reference count");
  if (historical.referenceCount === 1) distribution(ctx).delete(historicalRewardsKey(operator, period));
  else setHistoricalRewards(ctx, operator, period, { ...historical, referenceCount: historical.referenceCount - 1 });
}

/** initializeDelegation: a new starting info at the period just ended, with the stake in tokens (truncated). */
export async function initializeDelegation(ctx: ExecContext, operator: Uint8Array, delegator: Uint8Array): Promise<void> {
  const previousPeriod = (await getCurrentRewards(ctx, operator)).period - 1n;
  await incrementReferenceCount(ctx, operator, previousPeriod);
  const staking = ctx.storeOf("staking");
  const validator = (await getValidator(staking, ctx, operator))!;
  const delegation = (await getDelegation(staking, ctx, delegator, operator))!;
  const stake = tokensFromSharesTruncated(validator, decFromWire(delegation.shares as string));
  setStartingInfo(ctx, operator, delegator, { previousPeriod, stake, height: ctx.height });
}

/**
 * withdrawDelegationRewards: ends the period, pays the whole coins of the
 * rewards (capped by the outstanding rewards) to the withdraw address, the
 * decimals to the community pool, and removes the starting info.
 */
export async function withdrawDelegationRewards(ctx: ExecContext, validator: ProtoMessage, delegation: ProtoMessage): Promise<Coin[]> {
  const operator = operatorBytes(validator, ctx);
  const delegator = bech32Bytes(delegation.delegator_address, ctx.chain.bech32Prefix);
  const starting = await getStartingInfo(ctx, operator, delegator);
  if (!starting) throw distributionError("emptyDelegationDistInfo");
  await incrementValidatorPeriod(ctx, validator);
  // the period is closed: the current rewards are empty, so the virtual close adds nothing
  const rewardsRaw = await delegationRewards(distribution(ctx), validator, delegation, ctx.height, ctx);
  const outstanding = await getOutstanding(ctx, operator);
  const rewards = decCoinsIntersect(rewardsRaw, outstanding);
  const { whole, remainder } = decCoinsSplit(rewards);
  if (whole.length > 0) {
    const prefix = ctx.chain.bech32Prefix;
    const to = encodeBech32Address(bech32Prefixes(prefix).account, await withdrawAddressBytes(ctx, delegator));
    await sendCoins(ctx, moduleAddress(prefix, DISTRIBUTION_ACCOUNT), to, whole);
  }
  setOutstanding(ctx, operator, decCoinsSub(outstanding, rewards));
  setCommunityPool(ctx, decCoinsAdd(await getCommunityPool(ctx), remainder));
  await decrementReferenceCount(ctx, operator, BigInt(fieldText(starting.previous_period, "0")));
  distribution(ctx).delete(startingInfoKey(operator, delegator));
  return whole;
}

/** WithdrawValidatorCommission: the whole coins of the commission to the operator's withdraw address; the decimals stay. */
export async function withdrawValidatorCommission(ctx: ExecContext, operator: Uint8Array): Promise<Coin[]> {
  const commission = await getCommission(ctx, operator);
  if (commission.length === 0) throw distributionError("noValidatorCommission");
  const { whole, remainder } = decCoinsSplit(commission);
  setCommission(ctx, operator, remainder);
  setOutstanding(ctx, operator, decCoinsSub(await getOutstanding(ctx, operator), decCoinsFromCoins(whole)));
  if (whole.length > 0) {
    const prefix = ctx.chain.bech32Prefix;
    const to = encodeBech32Address(bech32Prefixes(prefix).account, await withdrawAddressBytes(ctx, operator));
    await sendCoins(ctx, moduleAddress(prefix, DISTRIBUTION_ACCOUNT), to, whole);
  }
  return whole;
}
