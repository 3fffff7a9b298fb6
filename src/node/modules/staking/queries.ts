import { moduleAddressBytes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import { bytesEqual } from "../../store/keyEncoding.js";
import { getBalance } from "../bank/keeper.js";
import { accountAddressParam, validatorAddressParam } from "../shared/addressField.js";
import type { QueryContext, QueryHandler } from "../nodeModule.js";
import { decFromWire, decTruncateInt } from "../shared/decMath.js";
import { BONDED_POOL, NOT_BONDED_POOL } from "./genesis.js";
import { DELEGATION_TYPE, bondDenom, decodeValidator, getDelegation, getStakingParams, getValidator, tokensFromShares } from "./keeper.js";
import {
  DELEGATION_PREFIX,
  VALIDATORS_PREFIX,
  delegationsOfPrefix,
  historicalInfoKey,
  redelegationKey,
  redelegationsBySrcPrefix,
  redelegationsOfPrefix,
  splitAddresses,
  unbondingKey,
  unbondingsByValidatorPrefix,
  unbondingsOfPrefix,
} from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { delegationsByIndex } from "../../indexes/delegationsByValidator.js";

const STATUS_NAMES = ["BOND_STATUS_UNBONDED", "BOND_STATUS_UNBONDING", "BOND_STATUS_BONDED"];
const UBD_TYPE = "core.staking.v1beta1.UnbondingDelegation";
const RED_TYPE = "core.staking.v1beta1.Redelegation";

const page = (request: ProtoMessage) => request.pagination as PageRequest | undefined;

/** The query service of x/staking, with the real module's filters and messages. */
export const stakingQueries: Record<string, QueryHandler> = {
  async Validators(request, ctx) {
    const status = fieldText(request.status);
    if (status !== "" && !STATUS_NAMES.includes(status)) throw invalidArgument(`invalid validator status ${status}`);
    const wanted = STATUS_NAMES.indexOf(status) + 1;
    const result = await paginate(ctx.store, VALIDATORS_PREFIX, page(request), (_key, value) => {
      const validator = decodeValidator(value, ctx);
      return status === "" || validator.status === wanted ? validator : undefined;
    });
    return { validators: result.items, pagination: result.pagination };
  },

  async Validator(request, ctx) {
    const validator = await getValidator(ctx.store, ctx, validatorAddressParam(request.validator_addr, "validator_addr", ctx));
    if (!validator) throw notFound(`validator ${String(request.validator_addr)} not found`);
    return { validator };
  },

  async ValidatorDelegations(request, ctx) {
    const operator = validatorAddressParam(request.validator_addr, "validator_addr", ctx);
    const type = ctx.codec.type(DELEGATION_TYPE);
    const indexed = await delegationsByIndex(operator, page(request), ctx);
    if (indexed) return { delegation_responses: await delegationResponses(indexed.items, ctx), pagination: indexed.pagination };
    // without the index (a home made before it, a fork), as the real query: scan every delegation, keep this validator's
    const result = await paginate(ctx.store, DELEGATION_PREFIX, page(request), (key, value) =>
      bytesEqual(splitAddresses(key)[1]!, operator) ? (type.decode(value) as unknown as ProtoMessage) : undefined,
    );
    return { delegation_responses: await delegationResponses(result.items, ctx), pagination: result.pagination };
  },

  async ValidatorUnbondingDelegations(request, ctx) {
    const operator = validatorAddressParam(request.validator_addr, "validator_addr", ctx);
    const type = ctx.codec.type(UBD_TYPE);
    const result = await paginate(ctx.store, unbondingsByValidatorPrefix(operator), page(request), async (key) => {
      const bytes = await ctx.store.get(unbondingKey(splitAddresses(key)[0]!, operator));
      return bytes ? type.decode(bytes) : undefined;
    });
    return { unbonding_responses: result.items, pagination: result.pagination };
  },

  async Delegation(request, ctx) {
    const delegator = accountAddressParam(request.delegator_addr, "delegator_addr", ctx);
    const operator = validatorAddressParam(request.validator_addr, "validator_addr", ctx);
    const delegation = await getDelegation(ctx.store, ctx, delegator, operator);
    if (!delegation) throw notFound(`delegation with delegator ${String(request.delegator_addr)} not found for validator ${String(request.validator_addr)}`);
    return { delegation_response: (await delegationResponses([delegation], ctx))[0] };
  },

  async UnbondingDelegation(request, ctx) {
    const delegator = accountAddressParam(request.delegator_addr, "delegator_addr", ctx);
    const operator = validatorAddressParam(request.validator_addr, "validator_addr", ctx);
    const bytes = await ctx.store.get(unbondingKey(delegator, operator));
    if (!bytes)
      throw notFound(`unbonding delegation with delegator ${String(request.delegator_addr)} not found for validator ${String(request.validator_addr)}`);
    return { unbond: ctx.codec.type(UBD_TYPE).decode(bytes) };
  },

  async DelegatorDelegations(request, ctx) {
    const delegator = accountAddressParam(request.delegator_addr, "delegator_addr", ctx);
    const type = ctx.codec.type(DELEGATION_TYPE);
    const result = await paginate(ctx.store, delegationsOfPrefix(delegator), page(request), (_key, value) => type.decode(value) as unknown as ProtoMessage);
    if (result.items.length === 0) throw notFound(`unable to find delegations for address ${String(request.delegator_addr)}`);
    return { delegation_responses: await delegationResponses(result.items, ctx), pagination: result.pagination };
  },

  async DelegatorUnbondingDelegations(request, ctx) {
    const delegator = accountAddressParam(request.delegator_addr, "delegator_addr", ctx);
    const type = ctx.codec.type(UBD_TYPE);
    const result = await paginate(ctx.store, unbondingsOfPrefix(delegator), page(request), (_key, value) => type.decode(value) as unknown as ProtoMessage);
    return { unbonding_responses: result.items, pagination: result.pagination };
  },

  async Redelegations(request, ctx) {
    const type = ctx.codec.type(RED_TYPE);
    const hasDelegator = fieldText(request.delegator_addr) !== "";
    const hasSrc = fieldText(request.src_validator_addr) !== "";
    const hasDst = fieldText(request.dst_validator_addr) !== "";
    if (hasDelegator && hasSrc && hasDst) {
      const delegator = accountAddressParam(request.delegator_addr, "delegator_addr", ctx);
      const src = validatorAddressParam(request.src_validator_addr, "src_validator_addr", ctx);
      const dst = validatorAddressParam(request.dst_validator_addr, "dst_validator_addr", ctx);
      const bytes = await ctx.store.get(redelegationKey(delegator, src, dst));
      if (!bytes) {
        throw notFound(
          `redelegation not found for delegator address ${String(request.delegator_addr)} from validator address ${String(request.src_validator_addr)}`,
        );
      }
      return { redelegation_responses: await redelegationResponses([type.decode(bytes)], ctx) };
    }
    let result;
    if (!hasDelegator && hasSrc && !hasDst) {
      const src = validatorAddressParam(request.src_validator_addr, "src_validator_addr", ctx);
      result = await paginate(ctx.store, redelegationsBySrcPrefix(src), page(request), async (key) => {
        const [delegator, dst] = splitAddresses(key);
        const bytes = await ctx.store.get(redelegationKey(delegator!, src, dst!));
        return bytes ? type.decode(bytes) : undefined;
      });
    } else {
      // as the real query: any other combination lists all redelegations of the delegator
      const delegator = accountAddressParam(request.delegator_addr, "delegator_addr", ctx);
      result = await paginate(ctx.store, redelegationsOfPrefix(delegator), page(request), (_key, value) => type.decode(value) as unknown as ProtoMessage);
    }
    return { redelegation_responses: await redelegationResponses(result.items, ctx), pagination: result.pagination };
  },

  async DelegatorValidators(request, ctx) {
    const delegator = accountAddressParam(request.delegator_addr, "delegator_addr", ctx);
    const result = await paginate(ctx.store, delegationsOfPrefix(delegator), page(request), async (key) => {
      const validator = await getValidator(ctx.store, ctx, splitAddresses(key)[0]!);
      if (!validator) throw notFound("validator does not exist");
      return validator;
    });
    return { validators: result.items, pagination: result.pagination };
  },

  async DelegatorValidator(request, ctx) {
    const delegator = accountAddressParam(request.delegator_addr, "delegator_addr", ctx);
    const operator = validatorAddressParam(request.validator_addr, "validator_addr", ctx);
    // the real query answers these two with code Internal (HTTP 500); a missing pair is a 404 here
    if (!(await getDelegation(ctx.store, ctx, delegator, operator))) throw notFound("no delegation for (address, validator) tuple");
    const validator = await getValidator(ctx.store, ctx, operator);
    if (!validator) throw notFound("validator does not exist");
    return { validator };
  },

  async HistoricalInfo(request, ctx) {
    const height = BigInt(fieldText(request.height, "0"));
    if (height < 0n) throw invalidArgument("height cannot be negative");
    const bytes = await ctx.store.get(historicalInfoKey(height));
    if (!bytes) throw notFound(`historical info for height ${height} not found`);
    return { hist: ctx.codec.type("core.staking.v1beta1.HistoricalInfo").decode(bytes) };
  },

  async Pool(_request, ctx) {
    const denom = await bondDenom(ctx.store, ctx);
    const bank = ctx.storeOf("bank");
    return {
      pool: {
        not_bonded_tokens: (await getBalance(bank, moduleAddressBytes(NOT_BONDED_POOL), denom)).toString(),
        bonded_tokens: (await getBalance(bank, moduleAddressBytes(BONDED_POOL), denom)).toString(),
      },
    };
  },

  async Params(_request, ctx) {
    return { params: await getStakingParams(ctx.store, ctx) };
  },
};

/** DelegationToDelegationResponse: the delegation with its balance, tokens from shares truncated. */
async function delegationResponses(delegations: ProtoMessage[], ctx: QueryContext): Promise<ProtoMessage[]> {
  const denom = await bondDenom(ctx.store, ctx);
  const out: ProtoMessage[] = [];
  for (const delegation of delegations) {
    const operator = validatorAddressParam(delegation.validator_address, "validator_address", ctx);
    const validator = await getValidator(ctx.store, ctx, operator);
    if (!validator) throw notFound("validator does not exist");
    const amount = decTruncateInt(tokensFromShares(validator, decFromWire(delegation.shares as string)));
    out.push({ delegation, balance: { denom, amount: amount.toString() } });
  }
  return out;
}

/** RedelegationsToRedelegationResponses: entries with their balance at the destination validator. */
export async function redelegationResponses(redelegations: ProtoMessage[], ctx: QueryContext): Promise<ProtoMessage[]> {
  const out: ProtoMessage[] = [];
  for (const red of redelegations) {
    const dst = await getValidator(ctx.store, ctx, validatorAddressParam(red.validator_dst_address, "validator_dst_address", ctx));
    if (!dst) throw notFound("validator does not exist");
    out.push({
      redelegation: {
        delegator_address: red.delegator_address,
        validator_src_address: red.validator_src_address,
        validator_dst_address: red.validator_dst_address,
      },
      entries: ((red.entries ?? []) as ProtoMessage[]).map((entry) => ({
        redelegation_entry: entry,
        balance: decTruncateInt(tokensFromShares(dst, decFromWire(entry.shares_dst as string))).toString(),
      })),
    });
  }
  return out;
}
