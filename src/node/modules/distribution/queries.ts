import { bech32Prefixes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import type { KVReader } from "../../store/kv.js";
import { accountAddressParam, validatorAddressParam } from "../shared/addressField.js";
import type { ModuleContext, QueryHandler } from "../nodeModule.js";
import { decCoinsAdd, decCoinsToProto, type DecCoin } from "../shared/decMath.js";
import { delegationsOf, getDelegation, getValidator } from "../staking/keeper.js";
import { delegationRewards } from "./keeper.js";
import { FEE_POOL_KEY, PARAMS_KEY, commissionKey, outstandingKey, slashEventsPrefix, withdrawAddressKey } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";

export async function readDistributionParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type("core.distribution.v1beta1.Params").decode(bytes) : {};
}

async function decode(store: KVReader, key: Uint8Array, type: string, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(key);
  return bytes ? ctx.codec.type(type).decode(bytes) : {};
}

/** The query service of x/distribution, with the real module's messages. */
export const distributionQueries: Record<string, QueryHandler> = {
  async Params(_request, ctx) {
    return { params: await readDistributionParams(ctx.store, ctx) };
  },

  /** An unknown validator has no outstanding rewards (the real query does not check it exists). */
  async ValidatorOutstandingRewards(request, ctx) {
    const operator = validatorAddressParam(request.validator_address, "validator_address", ctx);
    const outstanding = await decode(ctx.store, outstandingKey(operator), "core.distribution.v1beta1.ValidatorOutstandingRewards", ctx);
    return { rewards: { rewards: outstanding.rewards ?? [] } };
  },

  async ValidatorCommission(request, ctx) {
    const operator = validatorAddressParam(request.validator_address, "validator_address", ctx);
    const commission = await decode(ctx.store, commissionKey(operator), "core.distribution.v1beta1.ValidatorAccumulatedCommission", ctx);
    return { commission: { commission: commission.commission ?? [] } };
  },

  /** As the real query, the height bounds are compared with each event's validator period. */
  async ValidatorSlashes(request, ctx) {
    const starting = BigInt(fieldText(request.starting_height, "0"));
    const ending = BigInt(fieldText(request.ending_height, "0"));
    if (ending < starting) throw invalidArgument(`starting height greater than ending height (${starting} > ${ending})`);
    const operator = validatorAddressParam(request.validator_address, "validator_address", ctx);
    const type = ctx.codec.type("core.distribution.v1beta1.ValidatorSlashEvent");
    const result = await paginate(ctx.store, slashEventsPrefix(operator), request.pagination as PageRequest, (_key, value) => {
      const event = type.decode(value) as unknown as ProtoMessage;
      const period = BigInt(fieldText(event.validator_period, "0"));
      return period < starting || period > ending ? undefined : event;
    });
    return { slashes: result.items, pagination: result.pagination };
  },

  async DelegationRewards(request, ctx) {
    const operator = validatorAddressParam(request.validator_address, "validator_address", ctx);
    const staking = ctx.storeOf("staking");
    const validator = await getValidator(staking, ctx, operator);
    if (!validator) throw notFound(`${String(request.validator_address)}: validator does not exist`);
    const delegator = accountAddressParam(request.delegator_address, "delegator_address", ctx);
    const delegation = await getDelegation(staking, ctx, delegator, operator);
    if (!delegation) throw notFound("delegation does not exist");
    return { rewards: decCoinsToProto(await delegationRewards(ctx.store, validator, delegation, ctx.height, ctx)) };
  },

  async DelegationTotalRewards(request, ctx) {
    const delegator = accountAddressParam(request.delegator_address, "delegator_address", ctx);
    const staking = ctx.storeOf("staking");
    const rewards: ProtoMessage[] = [];
    let total: DecCoin[] = [];
    for (const delegation of await delegationsOf(staking, ctx, delegator)) {
      const operator = validatorAddressParam(delegation.validator_address, "validator_address", ctx);
      const validator = await getValidator(staking, ctx, operator);
      if (!validator) throw notFound(`${String(delegation.validator_address)}: validator does not exist`);
      const reward = await delegationRewards(ctx.store, validator, delegation, ctx.height, ctx);
      rewards.push({ validator_address: delegation.validator_address, reward: decCoinsToProto(reward) });
      total = decCoinsAdd(total, reward);
    }
    return { rewards, total: decCoinsToProto(total) };
  },

  async DelegatorValidators(request, ctx) {
    const delegator = accountAddressParam(request.delegator_address, "delegator_address", ctx);
    const delegations = await delegationsOf(ctx.storeOf("staking"), ctx, delegator);
    return { validators: delegations.map((d) => d.validator_address) };
  },

  /** The delegator itself unless it set another address. */
  async DelegatorWithdrawAddress(request, ctx) {
    const delegator = accountAddressParam(request.delegator_address, "delegator_address", ctx);
    const withdraw = await ctx.store.get(withdrawAddressKey(delegator));
    return { withdraw_address: encodeBech32Address(bech32Prefixes(ctx.chain.bech32Prefix).account, withdraw ?? delegator) };
  },

  async CommunityPool(_request, ctx) {
    const feePool = await decode(ctx.store, FEE_POOL_KEY, "core.distribution.v1beta1.FeePool", ctx);
    return { pool: feePool.community_pool ?? [] };
  },
};
