import { moduleAddress } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVStore } from "../../store/kv.js";
import { sendCoins } from "../bank/keeper.js";
import type { ExecContext, ModuleContext } from "../nodeModule.js";
import { bondDenom, consensusPower, DELEGATION_TYPE, getStakingParams, VALIDATOR_TYPE, validatorTokens } from "./keeper.js";
import {
  delegationKey,
  powerIndexKey,
  redelegationByDstKey,
  redelegationBySrcKey,
  redelegationKey,
  unbondingByValidatorKey,
  unbondingKey,
  validatorKey,
} from "./keys.js";
import { BONDED_POOL, NOT_BONDED_POOL } from "./genesis.js";
import { durationMs } from "../shared/goTime.js";

/** Writes of the staking state (keeper setters), on the staking store of an ExecContext. */
export const staking = (ctx: ExecContext) => ctx.storeOf("staking");

const UBD_TYPE = "core.staking.v1beta1.UnbondingDelegation";
const RED_TYPE = "core.staking.v1beta1.Redelegation";

export function setValidator(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage): void {
  staking(ctx).set(validatorKey(operator), ctx.codec.type(VALIDATOR_TYPE).encode(validator).finish());
}

/** SetValidatorByPowerIndex: jailed validators stay out of the index. */
export function setPowerIndex(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage): void {
  if (validator.jailed) return;
  staking(ctx).set(powerIndexKey(operator, consensusPower(validatorTokens(validator))), operator);
}

export function deletePowerIndex(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage): void {
  staking(ctx).delete(powerIndexKey(operator, consensusPower(validatorTokens(validator))));
}

export function setDelegation(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array, delegation: ProtoMessage): void {
  staking(ctx).set(delegationKey(delegator, operator), ctx.codec.type(DELEGATION_TYPE).encode(delegation).finish());
}

export function removeDelegation(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array): void {
  staking(ctx).delete(delegationKey(delegator, operator));
}

export async function getUnbonding(store: KVStore, ctx: ModuleContext, delegator: Uint8Array, operator: Uint8Array): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(unbondingKey(delegator, operator));
  return bytes ? ctx.codec.type(UBD_TYPE).decode(bytes) : undefined;
}

/** SetUnbondingDelegation, or RemoveUnbondingDelegation when no entries are left. */
export function putUnbonding(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array, ubd: ProtoMessage): void {
  const store = staking(ctx);
  if (((ubd.entries ?? []) as unknown[]).length === 0) {
    store.delete(unbondingKey(delegator, operator));
    store.delete(unbondingByValidatorKey(operator, delegator));
    return;
  }
  store.set(unbondingKey(delegator, operator), ctx.codec.type(UBD_TYPE).encode(ubd).finish());
  store.set(unbondingByValidatorKey(operator, delegator), new Uint8Array());
}

export async function getRedelegation(
  store: KVStore,
  ctx: ModuleContext,
  delegator: Uint8Array,
  src: Uint8Array,
  dst: Uint8Array,
): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(redelegationKey(delegator, src, dst));
  return bytes ? ctx.codec.type(RED_TYPE).decode(bytes) : undefined;
}

/** SetRedelegation, or RemoveRedelegation when no entries are left; both keep the by-source and by-destination indexes. */
export function putRedelegation(ctx: ExecContext, delegator: Uint8Array, src: Uint8Array, dst: Uint8Array, red: ProtoMessage): void {
  const store = staking(ctx);
  if (((red.entries ?? []) as unknown[]).length === 0) {
    store.delete(redelegationKey(delegator, src, dst));
    store.delete(redelegationBySrcKey(src, delegator, dst));
    store.delete(redelegationByDstKey(dst, delegator, src));
    return;
  }
  store.set(redelegationKey(delegator, src, dst), ctx.codec.type(RED_TYPE).encode(red).finish());
  store.set(redelegationBySrcKey(src, delegator, dst), new Uint8Array());
  store.set(redelegationByDstKey(dst, delegator, src), new Uint8Array());
}

/** Appends an item to a time-queue slice (InsertUBDQueue / InsertRedelegationQueue / InsertUnbondingValidatorQueue). */
export async function appendToQueue(ctx: ExecContext, key: Uint8Array, typeName: string, field: string, item: unknown): Promise<void> {
  const type = ctx.codec.type(typeName);
  const existing = await staking(ctx).get(key);
  const list = existing ? (((type.decode(existing) as unknown as ProtoMessage)[field] as unknown[]) ?? []) : [];
  staking(ctx).set(key, type.encode({ [field]: [...list, item] }).finish());
}

/** The unbonding period as milliseconds. */
export async function unbondingTimeMs(ctx: ExecContext): Promise<number> {
  return durationMs((await getStakingParams(staking(ctx), ctx)).unbonding_time);
}

async function movePool(ctx: ExecContext, from: string, to: string, amount: bigint): Promise<void> {
  if (amount <= 0n) return;
  const prefix = ctx.chain.bech32Prefix;
  const denom = await bondDenom(staking(ctx), ctx);
  await sendCoins(ctx, moduleAddress(prefix, from), moduleAddress(prefix, to), [{ denom, amount }]);
}

export const bondedTokensToNotBonded = (ctx: ExecContext, amount: bigint) => movePool(ctx, BONDED_POOL, NOT_BONDED_POOL, amount);
export const notBondedTokensToBonded = (ctx: ExecContext, amount: bigint) => movePool(ctx, NOT_BONDED_POOL, BONDED_POOL, amount);
