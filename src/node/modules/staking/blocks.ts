import { bech32Prefixes } from "../../../codec/addresses.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { compareBytes, concatBytes } from "../../store/keyEncoding.js";
import { formatCoins } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { completeRedelegation, completeUnbonding, removeValidator } from "./delegation.js";
import { stakingHooks } from "./hooks.js";
import {
  BondStatus,
  consensusAddressOf,
  consensusPower,
  encodeInt64Value,
  getStakingParams,
  getValidator,
  lastValidatorPowers,
  validatorShares,
  validatorTokens,
} from "./keeper.js";
import {
  LAST_TOTAL_POWER_KEY,
  encodeIntProto,
  POWER_INDEX_PREFIX,
  REDELEGATION_QUEUE_PREFIX,
  UNBONDING_QUEUE_PREFIX,
  VALIDATOR_QUEUE_PREFIX,
  formatTimeBytes,
  historicalInfoKey,
  lastValidatorPowerKey,
  validatorQueueKey,
} from "./keys.js";
import {
  appendToQueue,
  bondedTokensToNotBonded,
  deletePowerIndex,
  notBondedTokensToBonded,
  setPowerIndex,
  setValidator,
  staking,
  unbondingTimeMs,
} from "./store.js";
import { fieldText } from "../../../codec/fieldText.js";

/** The block hooks of x/staking (v0.41 abci.go, keeper/val_state_change.go, historical_info.go). */

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** BeginBlocker: TrackHistoricalInfo — prune old entries, store this height's header and last validator set. */
export async function trackHistoricalInfo(ctx: ExecContext): Promise<void> {
  const store = staking(ctx);
  const params = await getStakingParams(store, ctx);
  const entries = Number(params.historical_entries ?? 0);
  for (let height = ctx.height - entries; height >= 0; height--) {
    if (!(await store.get(historicalInfoKey(height)))) break;
    store.delete(historicalInfoKey(height));
  }
  if (entries === 0) return;
  const max = Number(params.max_validators ?? 0);
  const valset: ProtoMessage[] = [];
  for (const { operator } of (await lastValidatorPowers(store)).slice(0, max)) {
    const validator = await getValidator(store, ctx, operator);
    if (validator) valset.push(validator);
  }
  const operatorOf = (v: ProtoMessage) => decodeBech32Address(String(v.operator_address), bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator, "operator");
  valset.sort((a, b) => compareBytes(operatorOf(a), operatorOf(b)));
  const block = ctx.block;
  const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, "hex"));
  const header = {
    version: { block: 11, app: 0 },
    chain_id: ctx.chain.chainId,
    height: ctx.height,
    time: toTimestamp(ctx.time),
    last_block_id: {
      hash: bytes(block?.lastBlockId.hash ?? ""),
      part_set_header: { total: block?.lastBlockId.partsTotal ?? 0, hash: bytes(block?.lastBlockId.partsHash ?? "") },
    },
    app_hash: bytes(block?.appHash ?? ""),
    proposer_address: block?.proposer ?? new Uint8Array(),
  };
  store.set(historicalInfoKey(ctx.height), ctx.codec.type("core.staking.v1beta1.HistoricalInfo").encode({ header, valset }).finish());
}

/** EndBlocker: validator set changes, mature unbonding validators, unbonding delegations and redelegations. */
export async function stakingEndBlock(ctx: ExecContext): Promise<void> {
  await applyValidatorSetUpdates(ctx);
  await unbondAllMatureValidators(ctx);
  const prefixes = bech32Prefixes(ctx.chain.bech32Prefix);
  const account = (text: unknown) => decodeBech32Address(String(text), prefixes.account, "delegator");
  const operator = (text: unknown) => decodeBech32Address(String(text), prefixes.validatorOperator, "validator");
  for (const pair of await dequeueMature(ctx, UNBONDING_QUEUE_PREFIX, "core.staking.v1beta1.DVPairs", "pairs")) {
    const paid = await completeUnbonding(ctx, account(pair.delegator_address), operator(pair.validator_address));
    if (!paid) continue;
    ctx.emit({
      type: "complete_unbonding",
      attributes: [
        { key: "amount", value: formatCoins(paid) },
        { key: "validator", value: String(pair.validator_address) },
        { key: "delegator", value: String(pair.delegator_address) },
      ],
    });
  }
  for (const triplet of await dequeueMature(ctx, REDELEGATION_QUEUE_PREFIX, "core.staking.v1beta1.DVVTriplets", "triplets")) {
    const balances = await completeRedelegation(
      ctx,
      account(triplet.delegator_address),
      operator(triplet.validator_src_address),
      operator(triplet.validator_dst_address),
    );
    if (!balances) continue;
    ctx.emit({
      type: "complete_redelegation",
      attributes: [
        { key: "amount", value: formatCoins(balances) },
        { key: "delegator", value: String(triplet.delegator_address) },
        { key: "source_validator", value: String(triplet.validator_src_address) },
        { key: "destination_validator", value: String(triplet.validator_dst_address) },
      ],
    });
  }
}

/** The items of every queue slice whose time has come (key ≤ the block time), removing the slices. */
async function dequeueMature(ctx: ExecContext, prefix: Uint8Array, typeName: string, field: string): Promise<ProtoMessage[]> {
  const store = staking(ctx);
  const now = new TextDecoder().decode(formatTimeBytes(toTimestamp(ctx.time)));
  const type = ctx.codec.type(typeName);
  const due: Array<[Uint8Array, Uint8Array]> = [];
  for await (const [key, value] of store.iterate(prefix)) {
    if (new TextDecoder().decode(key) > now) break;
    due.push([key, value]);
  }
  const items: ProtoMessage[] = [];
  for (const [key, value] of due) {
    items.push(...(((type.decode(value) as unknown as ProtoMessage)[field] ?? []) as ProtoMessage[]));
    store.delete(concatBytes(prefix, key));
  }
  return items;
}

/**
 * ApplyAndReturnValidatorSetUpdates: the max_validators highest-power
 * validators become (or stay) bonded with their new power; those that fell out
 * begin unbonding; the pools follow with one transfer.
 */
export async function applyValidatorSetUpdates(ctx: ExecContext): Promise<void> {
  const store = staking(ctx);
  const max = Number((await getStakingParams(store, ctx)).max_validators ?? 0);
  const last = new Map((await lastValidatorPowers(store)).map((p) => [hexOf(p.operator), p]));
  const byPower: Uint8Array[] = [];
  for await (const [, operator] of store.iterate(POWER_INDEX_PREFIX)) byPower.push(operator);
  byPower.reverse();
  let toBonded = 0n;
  let toNotBonded = 0n;
  let total = 0n;
  let changed = false;
  let count = 0;
  for (const operator of byPower) {
    if (count >= max) break;
    let validator = (await getValidator(store, ctx, operator))!;
    if (validator.jailed) throw new Error("should never retrieve a jailed validator from the power store");
    if (consensusPower(validatorTokens(validator)) === 0n) break;
    if (validator.status === BondStatus.unbonded || validator.status === BondStatus.unbonding) {
      validator = await bondValidator(ctx, operator, validator);
      toBonded += validatorTokens(validator);
    }
    const power = consensusPower(validatorTokens(validator));
    const previous = last.get(hexOf(operator));
    if (!previous || previous.power !== power) {
      store.set(lastValidatorPowerKey(operator), encodeInt64Value(power));
      changed = true;
    }
    last.delete(hexOf(operator));
    count++;
    total += power;
  }
  const noLongerBonded = [...last.values()].map((p) => p.operator).sort(compareBytes);
  for (const operator of noLongerBonded) {
    const validator = await beginUnbondingValidator(ctx, operator, (await getValidator(store, ctx, operator))!);
    toNotBonded += validatorTokens(validator);
    store.delete(lastValidatorPowerKey(operator));
    changed = true;
  }
  if (toBonded > toNotBonded) await notBondedTokensToBonded(ctx, toBonded - toNotBonded);
  else if (toBonded < toNotBonded) await bondedTokensToNotBonded(ctx, toNotBonded - toBonded);
  if (changed) store.set(LAST_TOTAL_POWER_KEY, encodeIntProto(total));
}

async function bondValidator(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage): Promise<ProtoMessage> {
  deletePowerIndex(ctx, operator, validator);
  await removeFromValidatorQueue(ctx, validator);
  validator.status = BondStatus.bonded;
  setValidator(ctx, operator, validator);
  setPowerIndex(ctx, operator, validator);
  await stakingHooks.afterValidatorBonded(ctx, consensusAddressOf(validator, ctx));
  return validator;
}

async function beginUnbondingValidator(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage): Promise<ProtoMessage> {
  deletePowerIndex(ctx, operator, validator);
  if (validator.status !== BondStatus.bonded) throw new Error(`should not already be unbonded or unbonding, validator: ${String(validator.operator_address)}`);
  validator.status = BondStatus.unbonding;
  validator.unbonding_time = toTimestamp(new Date(ctx.time.getTime() + (await unbondingTimeMs(ctx))));
  validator.unbonding_height = String(ctx.height);
  setValidator(ctx, operator, validator);
  setPowerIndex(ctx, operator, validator);
  await appendToQueue(
    ctx,
    validatorQueueKey(validator.unbonding_time as ProtoMessage, BigInt(ctx.height)),
    "core.staking.v1beta1.ValAddresses",
    "addresses",
    validator.operator_address,
  );
  return validator;
}

/** DeleteValidatorQueue: the validator leaves the unbonding-validator queue slice it is in. */
async function removeFromValidatorQueue(ctx: ExecContext, validator: ProtoMessage): Promise<void> {
  const key = validatorQueueKey(validator.unbonding_time as ProtoMessage, BigInt(fieldText(validator.unbonding_height, "0")));
  const bytes = await staking(ctx).get(key);
  if (!bytes) return;
  const type = ctx.codec.type("core.staking.v1beta1.ValAddresses");
  const addresses = (((type.decode(bytes) as unknown as ProtoMessage).addresses ?? []) as string[]).filter((a) => a !== validator.operator_address);
  if (addresses.length === 0) staking(ctx).delete(key);
  else staking(ctx).set(key, type.encode({ addresses }).finish());
}

/** UnbondAllMatureValidators: unbonding validators whose time and height have come become unbonded (and leave when empty). */
async function unbondAllMatureValidators(ctx: ExecContext): Promise<void> {
  const store = staking(ctx);
  const now = new TextDecoder().decode(formatTimeBytes(toTimestamp(ctx.time)));
  const due: Array<[Uint8Array, Uint8Array]> = [];
  for await (const [key, value] of store.iterate(VALIDATOR_QUEUE_PREFIX)) {
    const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
    const timeLength = Number(view.getBigUint64(0));
    const time = new TextDecoder().decode(key.subarray(8, 8 + timeLength));
    const height = Number(view.getBigUint64(8 + timeLength));
    if (height <= ctx.height && time <= now) due.push([key, value]);
  }
  const type = ctx.codec.type("core.staking.v1beta1.ValAddresses");
  const prefix = bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator;
  for (const [key, value] of due) {
    for (const address of ((type.decode(value) as unknown as ProtoMessage).addresses ?? []) as string[]) {
      const operator = decodeBech32Address(address, prefix, "validator");
      const validator = await getValidator(store, ctx, operator);
      if (!validator) throw new Error("validator in the unbonding queue was not found");
      if (validator.status !== BondStatus.unbonding) throw new Error("unexpected validator in unbonding queue; status was not unbonding");
      validator.status = BondStatus.unbonded;
      setValidator(ctx, operator, validator);
      if (validatorShares(validator) === 0n) await removeValidator(ctx, operator);
    }
    store.delete(concatBytes(VALIDATOR_QUEUE_PREFIX, key));
  }
}
