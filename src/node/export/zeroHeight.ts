import { bech32Prefixes } from "../../codec/addresses.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { ExecContext } from "../modules/nodeModule.js";
import { distributionHooks } from "../modules/distribution/hooks.js";
import { HISTORICAL_PREFIX, SLASH_EVENT_PREFIX } from "../modules/distribution/keys.js";
import { withdrawDelegationRewards, withdrawValidatorCommission } from "../modules/distribution/rewards.js";
import { getCommunityPool, getOutstanding, setCommunityPool } from "../modules/distribution/state.js";
import { decCoinsAdd } from "../modules/shared/decMath.js";
import { decodedUnder } from "../modules/shared/exportReads.js";
import { SIGNING_INFO_PREFIX, SIGNING_INFO_TYPE } from "../modules/slashing/keys.js";
import { DELEGATION_TYPE, VALIDATOR_TYPE, getValidator, operatorBytes } from "../modules/staking/keeper.js";
import { DELEGATION_PREFIX, REDELEGATION_PREFIX, UNBONDING_PREFIX, VALIDATORS_PREFIX } from "../modules/staking/keys.js";
import { concatBytes } from "../store/keyEncoding.js";
import type { KVStore } from "../store/kv.js";
import { bech32Bytes } from "../modules/shared/msgAddresses.js";
import { applyValidatorSetUpdates } from "../modules/staking/blocks.js";
import { jailValidator } from "../modules/staking/delegation.js";
import { htlcPrepForZeroHeight } from "../modules/htlc/zeroHeight.js";
import { randomPrepForZeroHeight } from "../modules/random/zeroHeight.js";
import { oraclePrepForZeroHeight } from "../modules/oracle/zeroHeight.js";
import { servicePrepForZeroHeight } from "../modules/service/zeroHeight.js";

/**
 * The app's prepForZeroHeightGenesis (simapp / irishub app/export.go, SDK v0.41), run on a cache
 * layer over the exported height that is never committed: every validator's commission and every
 * delegator's rewards withdrawn, the distribution records started again from period 0 at height 0
 * (the leftover fractions to the community pool), the creation and unbonding heights of staking
 * and the signing infos' start heights reset to 0. `ctx(module)` gives a module's context on the layer.
 * With a non-empty `jailAllowed` (--jail-allowed-addrs, operator address bytes) every other validator
 * is jailed before the validator set is applied again. Then irismod's own steps, in the app's order:
 * htlc, random, oracle, service. (The invariants are asserted before, by the caller.)
 */
export async function prepForZeroHeight(ctx: (module: string) => ExecContext, jailAllowed: Uint8Array[] = []): Promise<void> {
  const staking = ctx("staking");
  const distribution = ctx("distribution");
  const prefixes = bech32Prefixes(staking.chain.bech32Prefix);
  const validators = (await decodedUnder(staking.store, VALIDATORS_PREFIX, staking, VALIDATOR_TYPE)).map(([, v]) => v);
  const delegations = (await decodedUnder(staking.store, DELEGATION_PREFIX, staking, DELEGATION_TYPE)).map(([, d]) => d);
  const pair = (delegation: ProtoMessage) => ({
    delegator: bech32Bytes(delegation.delegator_address, prefixes.account),
    operator: bech32Bytes(delegation.validator_address, prefixes.validatorOperator),
  });

  // withdraw all validator commission and all delegator rewards (errors ignored, as the real app does)
  for (const validator of validators) await withdrawValidatorCommission(distribution, operatorBytes(validator, staking)).catch(() => undefined);
  for (const delegation of delegations) {
    const validator = await getValidator(staking.store, staking, pair(delegation).operator);
    if (validator) await withdrawDelegationRewards(distribution, validator, delegation).catch(() => undefined);
  }
  await deleteUnder(distribution.store, SLASH_EVENT_PREFIX);
  await deleteUnder(distribution.store, HISTORICAL_PREFIX);

  // at height 0: every validator and delegation starts again
  const atZero = { ...distribution, height: 0 };
  for (const validator of validators) {
    const operator = operatorBytes(validator, staking);
    setCommunityPool(atZero, decCoinsAdd(await getCommunityPool(atZero), await getOutstanding(atZero, operator)));
    distributionHooks.afterValidatorCreated(atZero, operator);
  }
  for (const delegation of delegations) {
    const { delegator, operator } = pair(delegation);
    await distributionHooks.beforeDelegationCreated(atZero, delegator, operator);
    await distributionHooks.afterDelegationModified(atZero, delegator, operator);
  }

  await rewriteUnder(staking, REDELEGATION_PREFIX, "core.staking.v1beta1.Redelegation", (red) => ({ ...red, entries: entriesAtZero(red) }));
  await rewriteUnder(staking, UNBONDING_PREFIX, "core.staking.v1beta1.UnbondingDelegation", (ubd) => ({ ...ubd, entries: entriesAtZero(ubd) }));
  await rewriteUnder(staking, VALIDATORS_PREFIX, VALIDATOR_TYPE, (validator) => ({ ...validator, unbonding_height: 0 }));
  if (jailAllowed.length > 0) await jailAllExcept(staking, jailAllowed);
  await applyValidatorSetUpdates(staking);
  await rewriteUnder(ctx("slashing"), SIGNING_INFO_PREFIX, SIGNING_INFO_TYPE, (info) => ({ ...info, start_height: 0 }));

  await htlcPrepForZeroHeight(ctx("htlc"));
  await randomPrepForZeroHeight(ctx("random"));
  await oraclePrepForZeroHeight(ctx("oracle"));
  await servicePrepForZeroHeight(ctx("service"));
}

/**
 * The real app only sets `jailed` and leaves the power index, which makes its
 * ApplyAndReturnValidatorSetUpdates panic on a bonded validator; here the validator is jailed as
 * the slashing keeper jails (out of the power index), so it leaves the set and begins unbonding.
 */
async function jailAllExcept(staking: ExecContext, allowed: Uint8Array[]): Promise<void> {
  const keep = new Set(allowed.map((operator) => Buffer.from(operator).toString("hex")));
  for (const [, validator] of await decodedUnder(staking.store, VALIDATORS_PREFIX, staking, VALIDATOR_TYPE)) {
    const operator = operatorBytes(validator, staking);
    if (!validator.jailed && !keep.has(Buffer.from(operator).toString("hex"))) jailValidator(staking, operator, validator);
  }
}

const entriesAtZero = (record: ProtoMessage) => ((record.entries ?? []) as ProtoMessage[]).map((entry) => ({ ...entry, creation_height: 0 }));

async function deleteUnder(store: KVStore, prefix: Uint8Array): Promise<void> {
  const keys: Uint8Array[] = [];
  for await (const [key] of store.iterate(prefix)) keys.push(key);
  for (const key of keys) store.delete(concatBytes(prefix, key));
}

async function rewriteUnder(ctx: ExecContext, prefix: Uint8Array, typeName: string, change: (message: ProtoMessage) => ProtoMessage): Promise<void> {
  const type = ctx.codec.type(typeName);
  for (const [key, message] of await decodedUnder(ctx.store, prefix, ctx, typeName))
    ctx.store.set(concatBytes(prefix, key), type.encode(change(message)).finish());
}
