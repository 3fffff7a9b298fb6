import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVStore } from "../../store/kv.js";
import type { ExecContext } from "../nodeModule.js";
import { decCoinsFromProto, decCoinsToProto, type DecCoin } from "../shared/decMath.js";
import {
  FEE_POOL_KEY,
  PROPOSER_KEY,
  commissionKey,
  currentRewardsKey,
  historicalRewardsKey,
  outstandingKey,
  startingInfoKey,
  withdrawAddressKey,
} from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { decodeBytesValue, encodeBytesValue } from "../../store/wrapperValues.js";

/**
 * Getters and setters of the distribution state for block execution (the
 * keeper's store.go), with DecCoins as DecCoin arrays.
 */
const P = "core.distribution.v1beta1.";
export const distribution = (ctx: ExecContext): KVStore => ctx.storeOf("distribution");

async function read(ctx: ExecContext, key: Uint8Array, type: string): Promise<ProtoMessage | undefined> {
  const bytes = await distribution(ctx).get(key);
  return bytes ? ctx.codec.type(P + type).decode(bytes) : undefined;
}

function write(ctx: ExecContext, key: Uint8Array, type: string, value: ProtoMessage): void {
  distribution(ctx).set(
    key,
    ctx.codec
      .type(P + type)
      .encode(value)
      .finish(),
  );
}

export async function getCommunityPool(ctx: ExecContext): Promise<DecCoin[]> {
  return decCoinsFromProto((await read(ctx, FEE_POOL_KEY, "FeePool"))?.community_pool);
}

export function setCommunityPool(ctx: ExecContext, pool: DecCoin[]): void {
  write(ctx, FEE_POOL_KEY, "FeePool", { community_pool: decCoinsToProto(pool) });
}

export async function getOutstanding(ctx: ExecContext, operator: Uint8Array): Promise<DecCoin[]> {
  return decCoinsFromProto((await read(ctx, outstandingKey(operator), "ValidatorOutstandingRewards"))?.rewards);
}

export function setOutstanding(ctx: ExecContext, operator: Uint8Array, rewards: DecCoin[]): void {
  write(ctx, outstandingKey(operator), "ValidatorOutstandingRewards", { rewards: decCoinsToProto(rewards) });
}

export async function getCommission(ctx: ExecContext, operator: Uint8Array): Promise<DecCoin[]> {
  return decCoinsFromProto((await read(ctx, commissionKey(operator), "ValidatorAccumulatedCommission"))?.commission);
}

export function setCommission(ctx: ExecContext, operator: Uint8Array, commission: DecCoin[]): void {
  write(ctx, commissionKey(operator), "ValidatorAccumulatedCommission", { commission: decCoinsToProto(commission) });
}

export interface CurrentRewards {
  rewards: DecCoin[];
  period: bigint;
}

export async function getCurrentRewards(ctx: ExecContext, operator: Uint8Array): Promise<CurrentRewards> {
  const current = await read(ctx, currentRewardsKey(operator), "ValidatorCurrentRewards");
  return { rewards: decCoinsFromProto(current?.rewards), period: BigInt(fieldText(current?.period, "0")) };
}

export function setCurrentRewards(ctx: ExecContext, operator: Uint8Array, current: CurrentRewards): void {
  write(ctx, currentRewardsKey(operator), "ValidatorCurrentRewards", { rewards: decCoinsToProto(current.rewards), period: current.period.toString() });
}

export interface HistoricalRewards {
  ratio: DecCoin[];
  referenceCount: number;
}

export async function getHistoricalRewards(ctx: ExecContext, operator: Uint8Array, period: bigint): Promise<HistoricalRewards> {
  const historical = await read(ctx, historicalRewardsKey(operator, period), "ValidatorHistoricalRewards");
  return { ratio: decCoinsFromProto(historical?.cumulative_reward_ratio), referenceCount: Number(historical?.reference_count ?? 0) };
}

export function setHistoricalRewards(ctx: ExecContext, operator: Uint8Array, period: bigint, historical: HistoricalRewards): void {
  write(ctx, historicalRewardsKey(operator, period), "ValidatorHistoricalRewards", {
    cumulative_reward_ratio: decCoinsToProto(historical.ratio),
    reference_count: historical.referenceCount,
  });
}

export async function getStartingInfo(ctx: ExecContext, operator: Uint8Array, delegator: Uint8Array): Promise<ProtoMessage | undefined> {
  return read(ctx, startingInfoKey(operator, delegator), "DelegatorStartingInfo");
}

export function setStartingInfo(
  ctx: ExecContext,
  operator: Uint8Array,
  delegator: Uint8Array,
  info: { previousPeriod: bigint; stake: bigint; height: number },
): void {
  write(ctx, startingInfoKey(operator, delegator), "DelegatorStartingInfo", {
    previous_period: info.previousPeriod.toString(),
    stake: info.stake.toString(),
    height: String(info.height),
  });
}

/** The address a delegator's rewards go to: its own unless it set another. */
export async function withdrawAddressBytes(ctx: ExecContext, delegator: Uint8Array): Promise<Uint8Array> {
  return (await distribution(ctx).get(withdrawAddressKey(delegator))) ?? delegator;
}

export async function getPreviousProposer(ctx: ExecContext): Promise<Uint8Array | undefined> {
  const stored = await distribution(ctx).get(PROPOSER_KEY);
  return stored ? decodeBytesValue(stored) : undefined;
}

export function setPreviousProposer(ctx: ExecContext, consensus: Uint8Array): void {
  distribution(ctx).set(PROPOSER_KEY, encodeBytesValue(consensus));
}
