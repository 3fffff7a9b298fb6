import { bech32Prefixes, moduleAddress } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { sendCoins } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { DEC_ONE, decCoinsAdd, decCoinsSplit, decCoinsSub } from "../shared/decMath.js";
import { getDelegation, getValidator } from "../staking/keeper.js";
import { DISTRIBUTION_ACCOUNT } from "./genesis.js";
import { commissionKey, currentRewardsKey, historicalRewardsPrefix, outstandingKey, slashEventKey, slashEventsPrefix } from "./keys.js";
import { incrementValidatorPeriod, initializeDelegation, initializeValidator, withdrawDelegationRewards } from "./rewards.js";
import {
  distribution,
  getCommission,
  getCommunityPool,
  getHistoricalRewards,
  getOutstanding,
  setCommunityPool,
  setHistoricalRewards,
  withdrawAddressBytes,
} from "./state.js";

/** The staking hooks of x/distribution (keeper/hooks.go, v0.41). */
export const distributionHooks = {
  afterValidatorCreated(ctx: ExecContext, operator: Uint8Array): void {
    initializeValidator(ctx, operator);
  },

  async beforeDelegationCreated(ctx: ExecContext, _delegator: Uint8Array, operator: Uint8Array): Promise<void> {
    await incrementValidatorPeriod(ctx, (await getValidator(ctx.storeOf("staking"), ctx, operator))!);
  },

  /** The delegation's rewards are withdrawn before its shares change. */
  async beforeDelegationSharesModified(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array): Promise<void> {
    const staking = ctx.storeOf("staking");
    const validator = (await getValidator(staking, ctx, operator))!;
    const delegation = (await getDelegation(staking, ctx, delegator, operator))!;
    await withdrawDelegationRewards(ctx, validator, delegation);
  },

  async afterDelegationModified(ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array): Promise<void> {
    await initializeDelegation(ctx, operator, delegator);
  },

  /** updateValidatorSlashFraction: a new period ends at the slash, recorded as a slash event. */
  async beforeValidatorSlashed(ctx: ExecContext, operator: Uint8Array, fraction: bigint): Promise<void> {
    if (fraction > DEC_ONE || fraction < 0n) throw new Error(`fraction must be >=0 and <=1, current fraction: ${fraction}`);
    const period = await incrementValidatorPeriod(ctx, (await getValidator(ctx.storeOf("staking"), ctx, operator))!);
    const historical = await getHistoricalRewards(ctx, operator, period);
    setHistoricalRewards(ctx, operator, period, { ...historical, referenceCount: historical.referenceCount + 1 });
    const event = { validator_period: period.toString(), fraction: fraction.toString() };
    distribution(ctx).set(
      slashEventKey(operator, BigInt(ctx.height), period),
      ctx.codec.type("core.distribution.v1beta1.ValidatorSlashEvent").encode(event).finish(),
    );
  },

  /**
   * A removed validator's commission is paid out (whole coins; decimals and the
   * remaining outstanding rewards go to the community pool) and its records are deleted.
   */
  async afterValidatorRemoved(ctx: ExecContext, operator: Uint8Array): Promise<void> {
    let outstanding = await getOutstanding(ctx, operator);
    const commission = await getCommission(ctx, operator);
    if (commission.length > 0) {
      outstanding = decCoinsSub(outstanding, commission);
      const { whole, remainder } = decCoinsSplit(commission);
      setCommunityPool(ctx, decCoinsAdd(await getCommunityPool(ctx), remainder));
      if (whole.length > 0) {
        const prefix = ctx.chain.bech32Prefix;
        const to = encodeBech32Address(bech32Prefixes(prefix).account, await withdrawAddressBytes(ctx, operator));
        await sendCoins(ctx, moduleAddress(prefix, DISTRIBUTION_ACCOUNT), to, whole);
      }
    }
    setCommunityPool(ctx, decCoinsAdd(await getCommunityPool(ctx), outstanding));
    const store = distribution(ctx);
    store.delete(outstandingKey(operator));
    store.delete(commissionKey(operator));
    store.delete(currentRewardsKey(operator));
    for (const prefix of [slashEventsPrefix(operator), historicalRewardsPrefix(operator)]) {
      const keys: Uint8Array[] = [];
      for await (const [key] of store.iterate(prefix)) keys.push(key);
      for (const key of keys) store.delete(Uint8Array.from([...prefix, ...key]));
    }
  },
};
