import type { ExecContext } from "../nodeModule.js";
import { distributionHooks } from "../distribution/hooks.js";
import { slashingHooks } from "../slashing/hooks.js";

/** The staking keeper's hooks as the app wires them: distribution's, then slashing's (NewMultiStakingHooks). */
export const stakingHooks = {
  async afterValidatorCreated(ctx: ExecContext, operator: Uint8Array): Promise<void> {
    distributionHooks.afterValidatorCreated(ctx, operator);
    await slashingHooks.afterValidatorCreated(ctx, operator);
  },
  beforeDelegationCreated: (ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array) =>
    distributionHooks.beforeDelegationCreated(ctx, delegator, operator),
  beforeDelegationSharesModified: (ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array) =>
    distributionHooks.beforeDelegationSharesModified(ctx, delegator, operator),
  afterDelegationModified: (ctx: ExecContext, delegator: Uint8Array, operator: Uint8Array) =>
    distributionHooks.afterDelegationModified(ctx, delegator, operator),
  afterValidatorBonded: (ctx: ExecContext, consensus: Uint8Array) => slashingHooks.afterValidatorBonded(ctx, consensus),
  async afterValidatorRemoved(ctx: ExecContext, consensus: Uint8Array, operator: Uint8Array): Promise<void> {
    await distributionHooks.afterValidatorRemoved(ctx, operator);
    slashingHooks.afterValidatorRemoved(ctx, consensus);
  },
  beforeValidatorSlashed: (ctx: ExecContext, operator: Uint8Array, fraction: bigint) => distributionHooks.beforeValidatorSlashed(ctx, operator, fraction),
};
