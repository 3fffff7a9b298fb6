import { bech32Prefixes, moduleAddressBytes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { bytesEqual, concatBytes } from "../../store/keyEncoding.js";
import { addCoins, getBalance, subtractCoins, type Coin } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { formatDec } from "../../../codec/decimal.js";
import { decFromInt, decFromWire, decTruncateInt } from "../shared/decMath.js";
import { toTimestamp } from "../shared/genesisChecks.js";
import { timestampDate } from "../shared/goTime.js";
import { stakingError } from "./errors.js";
import { BONDED_POOL, NOT_BONDED_POOL } from "./genesis.js";
import { stakingHooks } from "./hooks.js";
import {
  BondStatus,
  bondDenom,
  consensusAddressOf,
  consensusPower,
  getDelegation,
  getStakingParams,
  getValidator,
  sharesFromTokens,
  tokensFromShares,
  validatorShares,
  validatorTokens,
} from "./keeper.js";
import { REDELEGATION_BY_DST_PREFIX, addressPart, powerIndexKey, redelegationQueueKey, unbondingQueueKey, validatorByConsKey, validatorKey } from "./keys.js";
import {
  appendToQueue,
  bondedTokensToNotBonded,
  deletePowerIndex,
  getRedelegation,
  getUnbonding,
  notBondedTokensToBonded,
  putRedelegation,
  putUnbonding,
  removeDelegation,
  setDelegation,
  setPowerIndex,
  setValidator,
  staking,
  unbondingTimeMs,
} from "./store.js";
import { fieldText } from "../../../codec/fieldText.js";

/** The delegation state changes of the staking keeper (keeper/delegation.go, v0.41), with the hooks that keep distribution right. */

const operatorText = (ctx: ExecContext, operator: Uint8Array) => encodeBech32Address(bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator, operator);
const accountText = (ctx: ExecContext, account: Uint8Array) => encodeBech32Address(ctx.chain.bech32Prefix, account);

/** AddValidatorTokensAndShares: the first delegation sets the exchange rate to one. */
async function addTokensAndShares(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage, amount: bigint): Promise<bigint> {
  deletePowerIndex(ctx, operator, validator);
  const shares = validatorShares(validator);
  const issued = shares === 0n ? decFromInt(amount) : sharesFromTokens(validator, amount);
  validator.tokens = (validatorTokens(validator) + amount).toString();
  validator.delegator_shares = (shares + issued).toString();
  setValidator(ctx, operator, validator);
  setPowerIndex(ctx, operator, validator);
  return issued;
}

/** RemoveValidatorTokensAndShares: the last shares take every remaining token; otherwise tokens from shares, truncated. */
async function removeTokensAndShares(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage, shares: bigint): Promise<bigint> {
  deletePowerIndex(ctx, operator, validator);
  const remaining = validatorShares(validator) - shares;
  const tokens = remaining === 0n ? validatorTokens(validator) : decTruncateInt(tokensFromShares(validator, shares));
  if (tokens > validatorTokens(validator)) throw new Error("attempting to remove more tokens than available in validator");
  validator.tokens = (validatorTokens(validator) - tokens).toString();
  validator.delegator_shares = remaining.toString();
  setValidator(ctx, operator, validator);
  setPowerIndex(ctx, operator, validator);
  return tokens;
}

/** bank DelegateCoins: from the delegator's balance to a pool, without events. */
async function delegateCoins(ctx: ExecContext, delegator: Uint8Array, pool: string, coin: Coin): Promise<void> {
  const bank = ctx.storeOf("bank");
  const balance = await getBalance(bank, delegator, coin.denom);
  if (balance < coin.amount) throw sdkError("insufficientFunds", `failed to delegate; ${balance}${coin.denom} is smaller than ${coin.amount}${coin.denom}`);
  await subtractCoins(bank, delegator, [coin]);
  await addCoins(bank, moduleAddressBytes(pool), [coin]);
}

/** Keeper.Delegate: returns the shares issued. `tokenSource` is the bond status the tokens come from. */
export async function delegate(
  ctx: ExecContext,
  delegator: Uint8Array,
  amount: bigint,
  tokenSource: number,
  operator: Uint8Array,
  subtractAccount: boolean,
): Promise<bigint> {
  const validator = (await getValidator(staking(ctx), ctx, operator))!;
  if (validatorTokens(validator) === 0n && validatorShares(validator) > 0n) throw stakingError("delegatorShareExRateInvalid");
  const existing = await getDelegation(staking(ctx), ctx, delegator, operator);
  if (existing) await stakingHooks.beforeDelegationSharesModified(ctx, delegator, operator);
  else await stakingHooks.beforeDelegationCreated(ctx, delegator, operator);
  const bonded = validator.status === BondStatus.bonded;
  if (subtractAccount) {
    await delegateCoins(ctx, delegator, bonded ? BONDED_POOL : NOT_BONDED_POOL, { denom: await bondDenom(staking(ctx), ctx), amount });
  } else if (tokenSource === BondStatus.bonded && !bonded) {
    await bondedTokensToNotBonded(ctx, amount);
  } else if (tokenSource !== BondStatus.bonded && bonded) {
    await notBondedTokensToBonded(ctx, amount);
  }
  const issued = await addTokensAndShares(ctx, operator, validator, amount);
  const delegation = existing ?? { delegator_address: accountText(ctx, delegator), validator_address: operatorText(ctx, operator), shares: "0" };
  delegation.shares = (decFromWire(delegation.shares as string) + issued).toString();
  setDelegation(ctx, delegator, operator, delegation);
  await stakingHooks.afterDelegationModified(ctx, delegator, operator);
  return issued;
}

/** Keeper.Unbond: removes shares from a delegation and returns the tokens they were worth. */
export async function unbond(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array, shares: bigint): Promise<bigint> {
  const delegation = await getDelegation(staking(ctx), ctx, delegator, operator);
  if (!delegation) throw stakingError("noDelegatorForAddress");
  await stakingHooks.beforeDelegationSharesModified(ctx, delegator, operator);
  const held = decFromWire(delegation.shares as string);
  if (held < shares) throw stakingError("notEnoughDelegationShares", formatDec(held));
  let validator = await getValidator(staking(ctx), ctx, operator);
  if (!validator) throw stakingError("noValidatorFound");
  const remaining = held - shares;
  delegation.shares = remaining.toString();
  // an operator whose self-delegation falls below its minimum is jailed
  if (
    bytesEqual(delegator, operator) &&
    !validator.jailed &&
    decTruncateInt(tokensFromShares(validator, remaining)) < BigInt(fieldText(validator.min_self_delegation, "0"))
  ) {
    jailValidator(ctx, operator, validator);
    validator = (await getValidator(staking(ctx), ctx, operator))!;
  }
  if (remaining === 0n) {
    removeDelegation(ctx, delegator, operator);
  } else {
    setDelegation(ctx, delegator, operator, delegation);
    await stakingHooks.afterDelegationModified(ctx, delegator, operator);
  }
  const amount = await removeTokensAndShares(ctx, operator, validator, shares);
  if (validatorShares(validator) === 0n && validator.status === BondStatus.unbonded) await removeValidator(ctx, operator);
  return amount;
}

/** ValidateUnbondAmount: the shares an amount of tokens is worth, capped at the delegation's shares. */
export async function validateUnbondAmount(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array, amount: bigint): Promise<bigint> {
  const validator = await getValidator(staking(ctx), ctx, operator);
  if (!validator) throw stakingError("noValidatorFound");
  const delegation = await getDelegation(staking(ctx), ctx, delegator, operator);
  if (!delegation) throw stakingError("noDelegation");
  if (validatorTokens(validator) === 0n) throw stakingError("insufficientShares");
  const shares = sharesFromTokens(validator, amount);
  const held = decFromWire(delegation.shares as string);
  // SharesFromTokensTruncated has the same value as SharesFromTokens (both truncate)
  if (shares > held) throw stakingError("badSharesAmount");
  return shares;
}

/** Keeper.Undelegate: returns the completion time of the new unbonding entry. */
export async function undelegate(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array, shares: bigint): Promise<Date> {
  const validator = await getValidator(staking(ctx), ctx, operator);
  if (!validator) throw stakingError("noDelegatorForAddress");
  const maxEntries = Number((await getStakingParams(staking(ctx), ctx)).max_entries ?? 0);
  const existing = await getUnbonding(staking(ctx), ctx, delegator, operator);
  if (existing && ((existing.entries ?? []) as unknown[]).length >= maxEntries) throw stakingError("maxUnbondingDelegationEntries");
  const amount = await unbond(ctx, delegator, operator, shares);
  if (validator.status === BondStatus.bonded) await bondedTokensToNotBonded(ctx, amount);
  const completion = new Date(ctx.time.getTime() + (await unbondingTimeMs(ctx)));
  const entry = {
    creation_height: String(ctx.height),
    completion_time: toTimestamp(completion),
    initial_balance: amount.toString(),
    balance: amount.toString(),
  };
  const ubd = existing ?? { delegator_address: accountText(ctx, delegator), validator_address: operatorText(ctx, operator), entries: [] };
  ubd.entries = [...((ubd.entries ?? []) as ProtoMessage[]), entry];
  putUnbonding(ctx, delegator, operator, ubd);
  await appendToQueue(ctx, unbondingQueueKey(entry.completion_time), "core.staking.v1beta1.DVPairs", "pairs", {
    delegator_address: ubd.delegator_address,
    validator_address: ubd.validator_address,
  });
  return completion;
}

/** Keeper.BeginRedelegation: returns the completion time (undefined: completed at once, the zero time of the real answer). */
export async function beginRedelegation(ctx: ExecContext, delegator: Uint8Array, src: Uint8Array, dst: Uint8Array, shares: bigint): Promise<Date | undefined> {
  if (bytesEqual(src, dst)) throw stakingError("selfRedelegation");
  const dstValidator = await getValidator(staking(ctx), ctx, dst);
  if (!dstValidator) throw stakingError("badRedelegationDst");
  const srcValidator = await getValidator(staking(ctx), ctx, src);
  if (!srcValidator) throw stakingError("badRedelegationDst");
  if (await hasReceivingRedelegation(ctx, delegator, src)) throw stakingError("transitiveRedelegation");
  const maxEntries = Number((await getStakingParams(staking(ctx), ctx)).max_entries ?? 0);
  const existing = await getRedelegation(staking(ctx), ctx, delegator, src, dst);
  if (existing && ((existing.entries ?? []) as unknown[]).length >= maxEntries) throw stakingError("maxRedelegationEntries");
  const amount = await unbond(ctx, delegator, src, shares);
  if (amount === 0n) throw stakingError("tinyRedelegationAmount");
  const created = await delegate(ctx, delegator, amount, Number(srcValidator.status), dst, false);
  // getBeginInfo: the source validator as it is now decides when the redelegation matures
  const source = await getValidator(staking(ctx), ctx, src);
  let completion: Date;
  let height: string;
  if (!source || source.status === BondStatus.bonded) {
    completion = new Date(ctx.time.getTime() + (await unbondingTimeMs(ctx)));
    height = String(ctx.height);
  } else if (source.status === BondStatus.unbonded) {
    return undefined;
  } else {
    completion = timestampDate(source.unbonding_time as ProtoMessage);
    height = fieldText(source.unbonding_height, "0");
  }
  const entry = { creation_height: height, completion_time: toTimestamp(completion), initial_balance: amount.toString(), shares_dst: created.toString() };
  const red = existing ?? {
    delegator_address: accountText(ctx, delegator),
    validator_src_address: operatorText(ctx, src),
    validator_dst_address: operatorText(ctx, dst),
    entries: [],
  };
  red.entries = [...((red.entries ?? []) as ProtoMessage[]), entry];
  putRedelegation(ctx, delegator, src, dst, red);
  await appendToQueue(ctx, redelegationQueueKey(entry.completion_time), "core.staking.v1beta1.DVVTriplets", "triplets", {
    delegator_address: red.delegator_address,
    validator_src_address: red.validator_src_address,
    validator_dst_address: red.validator_dst_address,
  });
  return completion;
}

async function hasReceivingRedelegation(ctx: ExecContext, delegator: Uint8Array, dst: Uint8Array): Promise<boolean> {
  for await (const _ of staking(ctx).iterate(concatBytes(REDELEGATION_BY_DST_PREFIX, addressPart(dst), addressPart(delegator)))) return true;
  return false;
}

const isMature = (entry: ProtoMessage, now: Date) => timestampDate(entry.completion_time as ProtoMessage).getTime() <= now.getTime();

/** CompleteUnbonding: mature entries pay their balance back from the not-bonded pool; returns the coins paid (undefined: no such unbonding). */
export async function completeUnbonding(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array): Promise<Coin[] | undefined> {
  const ubd = await getUnbonding(staking(ctx), ctx, delegator, operator);
  if (!ubd) return undefined;
  const denom = await bondDenom(staking(ctx), ctx);
  let paid = 0n;
  const kept: ProtoMessage[] = [];
  for (const entry of (ubd.entries ?? []) as ProtoMessage[]) {
    if (!isMature(entry, ctx.time)) {
      kept.push(entry);
      continue;
    }
    const balance = BigInt(fieldText(entry.balance, "0"));
    if (balance > 0n) {
      const bank = ctx.storeOf("bank");
      await subtractCoins(bank, moduleAddressBytes(NOT_BONDED_POOL), [{ denom, amount: balance }]);
      await addCoins(bank, delegator, [{ denom, amount: balance }]);
      paid += balance;
    }
  }
  ubd.entries = kept;
  putUnbonding(ctx, delegator, operator, ubd);
  return paid > 0n ? [{ denom, amount: paid }] : [];
}

/** CompleteRedelegation: mature entries are removed; returns their initial balances. */
export async function completeRedelegation(ctx: ExecContext, delegator: Uint8Array, src: Uint8Array, dst: Uint8Array): Promise<Coin[] | undefined> {
  const red = await getRedelegation(staking(ctx), ctx, delegator, src, dst);
  if (!red) return undefined;
  const denom = await bondDenom(staking(ctx), ctx);
  let total = 0n;
  const kept: ProtoMessage[] = [];
  for (const entry of (red.entries ?? []) as ProtoMessage[]) {
    if (isMature(entry, ctx.time)) total += BigInt(fieldText(entry.initial_balance, "0"));
    else kept.push(entry);
  }
  red.entries = kept;
  putRedelegation(ctx, delegator, src, dst, red);
  return total > 0n ? [{ denom, amount: total }] : [];
}

export function jailValidator(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage): void {
  deletePowerIndex(ctx, operator, validator);
  validator.jailed = true;
  setValidator(ctx, operator, validator);
}

export function unjailValidator(ctx: ExecContext, operator: Uint8Array, validator: ProtoMessage): void {
  validator.jailed = false;
  setValidator(ctx, operator, validator);
  setPowerIndex(ctx, operator, validator);
}

/** RemoveValidator: an unbonded validator without tokens leaves the state (and the hooks clean up). */
export async function removeValidator(ctx: ExecContext, operator: Uint8Array): Promise<void> {
  const validator = await getValidator(staking(ctx), ctx, operator);
  if (!validator) return;
  if (validator.status !== BondStatus.unbonded) throw new Error("cannot call RemoveValidator on bonded or unbonding validators");
  if (validatorTokens(validator) > 0n) throw new Error("attempting to remove a validator which still contains tokens");
  const consensus = consensusAddressOf(validator, ctx);
  const store = staking(ctx);
  store.delete(validatorKey(operator));
  store.delete(validatorByConsKey(consensus));
  store.delete(powerIndexKey(operator, consensusPower(validatorTokens(validator))));
  await stakingHooks.afterValidatorRemoved(ctx, consensus, operator);
}
