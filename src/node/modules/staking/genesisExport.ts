import { bech32Prefixes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodedAt, valuesUnder } from "../shared/exportReads.js";
import type { QueryContext } from "../nodeModule.js";
import { decodeStringValue } from "../../store/wrapperValues.js";
import { DELEGATION_TYPE, VALIDATOR_TYPE, lastValidatorPowers } from "./keeper.js";
import { DELEGATION_PREFIX, LAST_TOTAL_POWER_KEY, PARAMS_KEY, REDELEGATION_PREFIX, UNBONDING_PREFIX, VALIDATORS_PREFIX } from "./keys.js";

/**
 * ExportGenesis of x/staking: params, the last total power and each bonded validator's last
 * power, every validator, delegation, unbonding delegation and redelegation (in store order),
 * and exported = true, so that InitGenesis keeps the last powers instead of computing them.
 */
export async function exportStakingGenesis(ctx: QueryContext): Promise<ProtoMessage> {
  const { store } = ctx;
  const operatorPrefix = bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator;
  const total = await store.get(LAST_TOTAL_POWER_KEY);
  return {
    params: await decodedAt(store, PARAMS_KEY, ctx, "core.staking.v1beta1.Params"),
    // a bytes field holding an sdk.Int's text (customtype); the store keeps it as sdk.IntProto
    last_total_power: new TextEncoder().encode(total ? decodeStringValue(total) : "0"),
    last_validator_powers: (await lastValidatorPowers(store)).map(({ operator, power }) => ({
      address: encodeBech32Address(operatorPrefix, operator),
      power: power.toString(),
    })),
    validators: await valuesUnder(store, VALIDATORS_PREFIX, ctx, VALIDATOR_TYPE),
    delegations: await valuesUnder(store, DELEGATION_PREFIX, ctx, DELEGATION_TYPE),
    unbonding_delegations: await valuesUnder(store, UNBONDING_PREFIX, ctx, "core.staking.v1beta1.UnbondingDelegation"),
    redelegations: await valuesUnder(store, REDELEGATION_PREFIX, ctx, "core.staking.v1beta1.Redelegation"),
    exported: true,
  };
}
