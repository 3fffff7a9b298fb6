import { bech32Prefixes } from "../../../codec/addresses.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodedAt, decodedUnder, entriesUnder } from "../shared/exportReads.js";
import type { QueryContext } from "../nodeModule.js";
import { ADDRESS_LENGTH, splitAddresses } from "../staking/keys.js";
import { decodeBytesValue } from "../../store/wrapperValues.js";
import {
  COMMISSION_PREFIX,
  CURRENT_PREFIX,
  FEE_POOL_KEY,
  HISTORICAL_PREFIX,
  OUTSTANDING_PREFIX,
  PARAMS_KEY,
  PROPOSER_KEY,
  SLASH_EVENT_PREFIX,
  STARTING_INFO_PREFIX,
  WITHDRAW_ADDRESS_PREFIX,
} from "./keys.js";

const P = "core.distribution.v1beta1.";

/** A key that starts with an address (20 bytes in v0.41): the address and the bytes after it. */
function leadingAddress(key: Uint8Array): [Uint8Array, Uint8Array] {
  return [key.subarray(0, ADDRESS_LENGTH), key.subarray(ADDRESS_LENGTH)];
}

const uint64At = (bytes: Uint8Array, offset: number, littleEndian: boolean) =>
  new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getBigUint64(0, littleEndian).toString();

/**
 * ExportGenesis of x/distribution: params, fee pool, withdraw addresses, the previous proposer and
 * every validator's and delegator's reward records (outstanding, commission, historical, current,
 * starting infos, slash events), each with the addresses and numbers its store key holds.
 */
export async function exportDistributionGenesis(ctx: QueryContext): Promise<ProtoMessage> {
  const { store } = ctx;
  const prefixes = bech32Prefixes(ctx.chain.bech32Prefix);
  const val = (bytes: Uint8Array) => encodeBech32Address(prefixes.validatorOperator, bytes);
  const acc = (bytes: Uint8Array) => encodeBech32Address(prefixes.account, bytes);
  const under = (prefix: Uint8Array, type: string) => decodedUnder(store, prefix, ctx, P + type);
  const stored = await store.get(PROPOSER_KEY); // a BytesValue
  const proposer = stored ? decodeBytesValue(stored) : undefined;
  return {
    params: await decodedAt(store, PARAMS_KEY, ctx, P + "Params"),
    fee_pool: await decodedAt(store, FEE_POOL_KEY, ctx, P + "FeePool"),
    delegator_withdraw_infos: (await entriesUnder(store, WITHDRAW_ADDRESS_PREFIX)).map(([key, value]) => ({
      delegator_address: acc(leadingAddress(key)[0]),
      withdraw_address: acc(value),
    })),
    previous_proposer: proposer && proposer.length > 0 ? encodeBech32Address(prefixes.consensus, proposer) : "",
    outstanding_rewards: (await under(OUTSTANDING_PREFIX, "ValidatorOutstandingRewards")).map(([key, value]) => ({
      validator_address: val(leadingAddress(key)[0]),
      outstanding_rewards: value.rewards ?? [],
    })),
    validator_accumulated_commissions: (await under(COMMISSION_PREFIX, "ValidatorAccumulatedCommission")).map(([key, value]) => ({
      validator_address: val(leadingAddress(key)[0]),
      accumulated: value,
    })),
    validator_historical_rewards: (await under(HISTORICAL_PREFIX, "ValidatorHistoricalRewards")).map(([key, value]) => {
      const [operator, rest] = leadingAddress(key);
      return { validator_address: val(operator), period: uint64At(rest, 0, true), rewards: value };
    }),
    validator_current_rewards: (await under(CURRENT_PREFIX, "ValidatorCurrentRewards")).map(([key, value]) => ({
      validator_address: val(leadingAddress(key)[0]),
      rewards: value,
    })),
    delegator_starting_infos: (await under(STARTING_INFO_PREFIX, "DelegatorStartingInfo")).map(([key, value]) => {
      const [operator, delegator] = splitAddresses(key);
      return { delegator_address: acc(delegator!), validator_address: val(operator!), starting_info: value };
    }),
    validator_slash_events: (await under(SLASH_EVENT_PREFIX, "ValidatorSlashEvent")).map(([key, value]) => {
      const [operator, rest] = leadingAddress(key);
      return { validator_address: val(operator), height: uint64At(rest, 0, false), period: uint64At(rest, 8, false), validator_slash_event: value };
    }),
  };
}
