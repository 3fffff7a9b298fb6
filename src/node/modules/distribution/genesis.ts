import { bech32Prefixes, moduleAddressBytes } from "../../../codec/addresses.js";
import { formatDec } from "../../../codec/decimal.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { formatCoins, getAllBalances } from "../bank/keeper.js";
import type { ExecContext, ModuleContext } from "../nodeModule.js";
import { DEC_ONE, decCoinsAdd, decCoinsFromProto, decCoinsTruncate, type DecCoin } from "../shared/decMath.js";
import { addressAt, coinsAt, fractionAt, nonNegativeDecAt } from "../shared/genesisChecks.js";
import {
  FEE_POOL_KEY,
  PARAMS_KEY,
  PROPOSER_KEY,
  commissionKey,
  currentRewardsKey,
  historicalRewardsKey,
  outstandingKey,
  slashEventKey,
  startingInfoKey,
  withdrawAddressKey,
} from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { encodeBytesValue } from "../../store/wrapperValues.js";

export const DISTRIBUTION_ACCOUNT = "distribution";
const P = "core.distribution.v1beta1.";

/** ValidateGenesis of x/distribution (params and fee pool) plus the addresses of every record, with field paths. */
export function validateDistributionGenesis(state: ProtoMessage, ctx: ModuleContext): void {
  const params = (state.params ?? {}) as ProtoMessage;
  const tax = fractionAt(params.community_tax, "params.community_tax", "community tax");
  const base = nonNegativeDecAt(params.base_proposer_reward, "params.base_proposer_reward");
  const bonus = nonNegativeDecAt(params.bonus_proposer_reward, "params.bonus_proposer_reward");
  if (tax + base + bonus > DEC_ONE) {
    throw new Error(`params: sum of base, bonus proposer rewards, and community tax cannot be greater than one: ${formatDec(tax + base + bonus)}`);
  }
  coinsAt(((state.fee_pool ?? {}) as ProtoMessage).community_pool, "fee_pool.community_pool", { dec: true });
  const prefixes = bech32Prefixes(ctx.chain.bech32Prefix);
  const validator = (value: unknown, path: string) => addressAt(value, prefixes.validatorOperator, path);
  const account = (value: unknown, path: string) => addressAt(value, prefixes.account, path);
  each(state.delegator_withdraw_infos, "delegator_withdraw_infos", (info, at) => {
    account(info.delegator_address, `${at}.delegator_address`);
    account(info.withdraw_address, `${at}.withdraw_address`);
  });
  if (fieldText(state.previous_proposer) !== "") addressAt(state.previous_proposer, prefixes.consensus, "previous_proposer");
  each(state.outstanding_rewards, "outstanding_rewards", (record, at) => {
    validator(record.validator_address, `${at}.validator_address`);
    coinsAt(record.outstanding_rewards, `${at}.outstanding_rewards`, { dec: true });
  });
  each(state.validator_accumulated_commissions, "validator_accumulated_commissions", (record, at) => {
    validator(record.validator_address, `${at}.validator_address`);
    coinsAt(((record.accumulated ?? {}) as ProtoMessage).commission, `${at}.accumulated.commission`, { dec: true });
  });
  each(state.validator_historical_rewards, "validator_historical_rewards", (record, at) => validator(record.validator_address, `${at}.validator_address`));
  each(state.validator_current_rewards, "validator_current_rewards", (record, at) => validator(record.validator_address, `${at}.validator_address`));
  each(state.delegator_starting_infos, "delegator_starting_infos", (record, at) => {
    account(record.delegator_address, `${at}.delegator_address`);
    validator(record.validator_address, `${at}.validator_address`);
    nonNegativeDecAt(((record.starting_info ?? {}) as ProtoMessage).stake, `${at}.starting_info.stake`);
  });
  each(state.validator_slash_events, "validator_slash_events", (record, at) => {
    validator(record.validator_address, `${at}.validator_address`);
    fractionAt(((record.validator_slash_event ?? {}) as ProtoMessage).fraction, `${at}.validator_slash_event.fraction`, "slash fraction");
  });
}

function each(list: unknown, field: string, check: (item: ProtoMessage, at: string) => void): void {
  ((list ?? []) as ProtoMessage[]).forEach((item, i) => check(item, `${field}[${i}]`));
}

/**
 * InitGenesis of x/distribution. As the real module, the distribution module
 * account must hold exactly the outstanding rewards plus the community pool,
 * truncated to whole coins.
 */
export async function initDistributionGenesis(state: ProtoMessage, ctx: ExecContext): Promise<void> {
  const { store, codec } = ctx;
  const prefixes = bech32Prefixes(ctx.chain.bech32Prefix);
  const val = (value: unknown) => addressAt(value, prefixes.validatorOperator, "validator_address");
  const acc = (value: unknown) => addressAt(value, prefixes.account, "address");
  const encode = (type: string, message: unknown) =>
    codec
      .type(P + type)
      .encode(message ?? {})
      .finish();
  const feePool = (state.fee_pool ?? {}) as ProtoMessage;
  store.set(FEE_POOL_KEY, encode("FeePool", feePool));
  store.set(PARAMS_KEY, encode("Params", state.params));
  for (const info of (state.delegator_withdraw_infos ?? []) as ProtoMessage[])
    store.set(withdrawAddressKey(acc(info.delegator_address)), acc(info.withdraw_address));
  if (fieldText(state.previous_proposer) !== "")
    store.set(PROPOSER_KEY, encodeBytesValue(addressAt(state.previous_proposer, prefixes.consensus, "previous_proposer")));
  let holdings: DecCoin[] = [];
  for (const record of (state.outstanding_rewards ?? []) as ProtoMessage[]) {
    store.set(outstandingKey(val(record.validator_address)), encode("ValidatorOutstandingRewards", { rewards: record.outstanding_rewards ?? [] }));
    holdings = decCoinsAdd(holdings, decCoinsFromProto(record.outstanding_rewards));
  }
  for (const record of (state.validator_accumulated_commissions ?? []) as ProtoMessage[]) {
    store.set(commissionKey(val(record.validator_address)), encode("ValidatorAccumulatedCommission", record.accumulated));
  }
  for (const record of (state.validator_historical_rewards ?? []) as ProtoMessage[]) {
    store.set(historicalRewardsKey(val(record.validator_address), BigInt(fieldText(record.period, "0"))), encode("ValidatorHistoricalRewards", record.rewards));
  }
  for (const record of (state.validator_current_rewards ?? []) as ProtoMessage[]) {
    store.set(currentRewardsKey(val(record.validator_address)), encode("ValidatorCurrentRewards", record.rewards));
  }
  for (const record of (state.delegator_starting_infos ?? []) as ProtoMessage[]) {
    store.set(startingInfoKey(val(record.validator_address), acc(record.delegator_address)), encode("DelegatorStartingInfo", record.starting_info));
  }
  for (const record of (state.validator_slash_events ?? []) as ProtoMessage[]) {
    const key = slashEventKey(val(record.validator_address), BigInt(fieldText(record.height, "0")), BigInt(fieldText(record.period, "0")));
    store.set(key, encode("ValidatorSlashEvent", record.validator_slash_event));
  }
  holdings = decCoinsAdd(holdings, decCoinsFromProto(feePool.community_pool));
  const expected = formatCoins(decCoinsTruncate(holdings));
  const balance = formatCoins(await getAllBalances(ctx.storeOf("bank"), moduleAddressBytes(DISTRIBUTION_ACCOUNT)));
  if (balance !== expected) throw new Error(`distribution genesis: distribution module balance does not match the module holdings: ${balance} <-> ${expected}`);
}
