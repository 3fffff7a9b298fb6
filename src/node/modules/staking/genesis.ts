import { bech32Prefixes, moduleAddressBytes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { compareBytes } from "../../store/keyEncoding.js";
import type { KVStore } from "../../store/kv.js";
import { formatCoins, getAllBalances, type Coin } from "../bank/keeper.js";
import { DENOM_PATTERN } from "../shared/addressField.js";
import type { ExecContext, ModuleContext } from "../nodeModule.js";
import { addressAt, fractionAt, nonNegativeDecAt, nonNegativeIntAt, toTimestamp } from "../shared/genesisChecks.js";
import {
  BondStatus,
  VALIDATOR_TYPE,
  bondedValidatorsByPower,
  consensusAddressOf,
  consensusPower,
  consensusPublicKey,
  encodeInt64Value,
  operatorBytes,
  validatorTokens,
} from "./keeper.js";
import {
  LAST_TOTAL_POWER_KEY,
  encodeIntProto,
  PARAMS_KEY,
  delegationKey,
  historicalInfoKey,
  lastValidatorPowerKey,
  powerIndexKey,
  redelegationByDstKey,
  redelegationBySrcKey,
  redelegationKey,
  redelegationQueueKey,
  unbondingByValidatorKey,
  unbondingKey,
  unbondingQueueKey,
  validatorByConsKey,
  validatorKey,
  validatorQueueKey,
} from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { neutralTypeUrl, profileTypeUrl } from "../../../codec/typeRegistry.js";

export const BONDED_POOL = "bonded_tokens_pool";
export const NOT_BONDED_POOL = "not_bonded_tokens_pool";

const CONSENSUS_KEY_TYPES = ["/core.crypto.ed25519.PubKey"];

/** ValidateGenesis of x/staking, with field paths, plus the references the real InitGenesis relies on. */
export function validateStakingGenesis(state: ProtoMessage, ctx: ModuleContext): void {
  const prefixes = bech32Prefixes(ctx.chain.bech32Prefix);
  validateParams((state.params ?? {}) as ProtoMessage);
  const validators = new Set<string>();
  const consensusKeys = new Set<string>();
  ((state.validators ?? []) as ProtoMessage[]).forEach((validator, i) => {
    const at = `validators[${i}]`;
    addressAt(validator.operator_address, prefixes.validatorOperator, `${at}.operator_address`);
    if (validators.has(String(validator.operator_address)))
      throw new Error(`${at}.operator_address: duplicate validator ${String(validator.operator_address)}`);
    validators.add(String(validator.operator_address));
    const any = (validator.consensus_pubkey ?? {}) as ProtoMessage;
    if (!CONSENSUS_KEY_TYPES.includes(neutralTypeUrl(any.type_url))) {
      throw new Error(`${at}.consensus_pubkey: expected a ${CONSENSUS_KEY_TYPES.map(profileTypeUrl).join(" or ")} key, got "${fieldText(any.type_url)}"`);
    }
    if (consensusPublicKey(validator, ctx)?.length !== 32) throw new Error(`${at}.consensus_pubkey: an ed25519 public key is 32 bytes`);
    const key = Buffer.from(consensusAddressOf(validator, ctx)).toString("hex");
    if (consensusKeys.has(key)) throw new Error(`${at}.consensus_pubkey: duplicate validator in genesis state: moniker ${moniker(validator)}`);
    consensusKeys.add(key);
    const status = Number(validator.status ?? 0);
    if (status === BondStatus.unspecified) throw new Error(`${at}.status: invalid validator status BOND_STATUS_UNSPECIFIED`);
    if (validator.jailed && status === BondStatus.bonded)
      throw new Error(`${at}: validator is bonded and jailed in genesis state: moniker ${moniker(validator)}`);
    nonNegativeIntAt(validator.tokens, `${at}.tokens`);
    const shares = nonNegativeDecAt(validator.delegator_shares, `${at}.delegator_shares`);
    if (shares === 0n && status !== BondStatus.unbonding)
      throw new Error(`${at}.delegator_shares: bonded/unbonded genesis validator cannot have zero delegator shares`);
    validateCommission(((validator.commission ?? {}) as ProtoMessage).commission_rates as ProtoMessage | undefined, `${at}.commission.commission_rates`);
  });
  const known = (address: unknown, path: string) => {
    addressAt(address, prefixes.validatorOperator, path);
    if (!validators.has(String(address))) throw new Error(`${path}: validator ${String(address)} is not in validators`);
  };
  ((state.last_validator_powers ?? []) as ProtoMessage[]).forEach((power, i) => known(power.address, `last_validator_powers[${i}].address`));
  ((state.delegations ?? []) as ProtoMessage[]).forEach((delegation, i) => {
    addressAt(delegation.delegator_address, prefixes.account, `delegations[${i}].delegator_address`);
    known(delegation.validator_address, `delegations[${i}].validator_address`);
    nonNegativeDecAt(delegation.shares, `delegations[${i}].shares`);
  });
  ((state.unbonding_delegations ?? []) as ProtoMessage[]).forEach((ubd, i) => {
    addressAt(ubd.delegator_address, prefixes.account, `unbonding_delegations[${i}].delegator_address`);
    known(ubd.validator_address, `unbonding_delegations[${i}].validator_address`);
    ((ubd.entries ?? []) as ProtoMessage[]).forEach((entry, j) => nonNegativeIntAt(entry.balance, `unbonding_delegations[${i}].entries[${j}].balance`));
  });
  ((state.redelegations ?? []) as ProtoMessage[]).forEach((red, i) => {
    addressAt(red.delegator_address, prefixes.account, `redelegations[${i}].delegator_address`);
    known(red.validator_src_address, `redelegations[${i}].validator_src_address`);
    known(red.validator_dst_address, `redelegations[${i}].validator_dst_address`);
  });
}

function validateParams(params: ProtoMessage): void {
  const unbonding = (params.unbonding_time ?? {}) as { seconds?: unknown; nanos?: unknown };
  if (Number(fieldText(unbonding.seconds, "0")) <= 0 && Number(unbonding.nanos ?? 0) <= 0)
    throw new Error("params.unbonding_time: unbonding time must be positive");
  if (!(Number(params.max_validators ?? 0) > 0))
    throw new Error(`params.max_validators: max validators must be positive: ${Number(params.max_validators ?? 0)}`);
  if (!(Number(params.max_entries ?? 0) > 0)) throw new Error(`params.max_entries: max entries must be positive: ${Number(params.max_entries ?? 0)}`);
  const denom = fieldText(params.bond_denom);
  if (denom.trim() === "") throw new Error("params.bond_denom: bond denom cannot be blank");
  if (!DENOM_PATTERN.test(denom)) throw new Error(`params.bond_denom: invalid denom "${denom}"`);
}

function validateCommission(rates: ProtoMessage | undefined, at: string): void {
  const rate = fractionAt(rates?.rate, `${at}.rate`, "commission rate");
  const maxRate = fractionAt(rates?.max_rate, `${at}.max_rate`, "commission max rate");
  const maxChange = fractionAt(rates?.max_change_rate, `${at}.max_change_rate`, "commission max change rate");
  if (rate > maxRate) throw new Error(`${at}.rate: commission cannot be more than the max rate`);
  if (maxChange > maxRate) throw new Error(`${at}.max_change_rate: commission change rate cannot be more than the max rate`);
}

const moniker = (validator: ProtoMessage) => fieldText(((validator.description ?? {}) as ProtoMessage).moniker);

/**
 * InitGenesis of x/staking: validators with their indexes, delegations,
 * unbonding delegations and redelegations with their queues, the last powers,
 * and the pool checks of the real module (the bonded and not-bonded pool
 * accounts must hold exactly the tokens the state says). A genesis that is not
 * `exported` gets its last powers from its BONDED validators by power (the
 * real chain would also move validators between the bonded and unbonded sets here).
 */
export async function initStakingGenesis(state: ProtoMessage, ctx: ExecContext): Promise<void> {
  const { store, codec } = ctx;
  const params = (state.params ?? {}) as ProtoMessage;
  const denom = String(params.bond_denom);
  store.set(PARAMS_KEY, codec.type("core.staking.v1beta1.Params").encode(params).finish());
  let bonded = 0n;
  let notBonded = 0n;
  const validatorType = codec.type(VALIDATOR_TYPE);
  for (const validator of (state.validators ?? []) as ProtoMessage[]) {
    const operator = operatorBytes(validator, ctx);
    store.set(validatorKey(operator), validatorType.encode(validator).finish());
    store.set(validatorByConsKey(consensusAddressOf(validator, ctx)), operator);
    if (!validator.jailed) store.set(powerIndexKey(operator, consensusPower(validatorTokens(validator))), operator);
    if (validator.status === BondStatus.unbonding) {
      await appendToQueue(
        store,
        validatorQueueKey(validator.unbonding_time as ProtoMessage, BigInt(fieldText(validator.unbonding_height, "0"))),
        "core.staking.v1beta1.ValAddresses",
        "addresses",
        validator.operator_address,
        ctx,
      );
    }
    if (validator.status === BondStatus.bonded) bonded += validatorTokens(validator);
    else notBonded += validatorTokens(validator);
  }
  const delegationType = codec.type("core.staking.v1beta1.Delegation");
  for (const delegation of (state.delegations ?? []) as ProtoMessage[]) {
    const [delegator, operator] = pairBytes(delegation.delegator_address, delegation.validator_address, ctx);
    store.set(delegationKey(delegator, operator), delegationType.encode(delegation).finish());
  }
  const ubdType = codec.type("core.staking.v1beta1.UnbondingDelegation");
  for (const ubd of (state.unbonding_delegations ?? []) as ProtoMessage[]) {
    const [delegator, operator] = pairBytes(ubd.delegator_address, ubd.validator_address, ctx);
    store.set(unbondingKey(delegator, operator), ubdType.encode(ubd).finish());
    store.set(unbondingByValidatorKey(operator, delegator), new Uint8Array());
    for (const entry of (ubd.entries ?? []) as ProtoMessage[]) {
      await appendToQueue(
        store,
        unbondingQueueKey(entry.completion_time as ProtoMessage),
        "core.staking.v1beta1.DVPairs",
        "pairs",
        { delegator_address: ubd.delegator_address, validator_address: ubd.validator_address },
        ctx,
      );
      notBonded += BigInt(fieldText(entry.balance, "0"));
    }
  }
  const redType = codec.type("core.staking.v1beta1.Redelegation");
  for (const red of (state.redelegations ?? []) as ProtoMessage[]) {
    const [delegator, src] = pairBytes(red.delegator_address, red.validator_src_address, ctx);
    const [, dst] = pairBytes(red.delegator_address, red.validator_dst_address, ctx);
    store.set(redelegationKey(delegator, src, dst), redType.encode(red).finish());
    store.set(redelegationBySrcKey(src, delegator, dst), new Uint8Array());
    store.set(redelegationByDstKey(dst, delegator, src), new Uint8Array());
    const triplet = {
      delegator_address: red.delegator_address,
      validator_src_address: red.validator_src_address,
      validator_dst_address: red.validator_dst_address,
    };
    for (const entry of (red.entries ?? []) as ProtoMessage[]) {
      await appendToQueue(store, redelegationQueueKey(entry.completion_time as ProtoMessage), "core.staking.v1beta1.DVVTriplets", "triplets", triplet, ctx);
    }
  }
  await checkPool(ctx, BONDED_POOL, [{ denom, amount: bonded }], "bonded pool balance is different from bonded coins");
  await checkPool(ctx, NOT_BONDED_POOL, [{ denom, amount: notBonded }], "not bonded pool balance is different from not bonded coins");

  const powers = state.exported ? exportedPowers(state, ctx) : await computedPowers(store, ctx);
  let total = 0n;
  for (const { operator, power } of powers) {
    store.set(lastValidatorPowerKey(operator), encodeInt64Value(power));
    total += power;
  }
  store.set(LAST_TOTAL_POWER_KEY, encodeIntProto(total));
  if (Number(params.historical_entries ?? 0) > 0)
    await trackHistoricalInfo(
      store,
      ctx,
      powers.map((p) => p.operator),
    );
}

function pairBytes(account: unknown, operator: unknown, ctx: ModuleContext): [Uint8Array, Uint8Array] {
  const prefixes = bech32Prefixes(ctx.chain.bech32Prefix);
  return [addressAt(account, prefixes.account, "delegator_address"), addressAt(operator, prefixes.validatorOperator, "validator_address")];
}

async function appendToQueue(store: KVStore, key: Uint8Array, typeName: string, field: string, item: unknown, ctx: ModuleContext): Promise<void> {
  const type = ctx.codec.type(typeName);
  const existing = await store.get(key);
  const list = existing ? (((type.decode(existing) as unknown as ProtoMessage)[field] as unknown[]) ?? []) : [];
  store.set(key, type.encode({ [field]: [...list, item] }).finish());
}

async function checkPool(ctx: ExecContext, name: string, expected: Coin[], message: string): Promise<void> {
  const balance = formatCoins(await getAllBalances(ctx.storeOf("bank"), moduleAddressBytes(name)));
  const wanted = formatCoins(expected.filter((c) => c.amount !== 0n));
  if (balance !== wanted) throw new Error(`staking genesis: ${message}: ${balance} <-> ${wanted}`);
}

function exportedPowers(state: ProtoMessage, ctx: ModuleContext): Array<{ operator: Uint8Array; power: bigint }> {
  const prefix = bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator;
  return ((state.last_validator_powers ?? []) as ProtoMessage[]).map((p) => ({
    operator: addressAt(p.address, prefix, "address"),
    power: BigInt(fieldText(p.power, "0")),
  }));
}

async function computedPowers(store: KVStore, ctx: ModuleContext): Promise<Array<{ operator: Uint8Array; power: bigint }>> {
  return (await bondedValidatorsByPower(store, ctx))
    .map((validator) => ({ operator: operatorBytes(validator, ctx), power: consensusPower(validatorTokens(validator)) }))
    .filter((p) => p.power > 0n);
}

/**
 * The HistoricalInfo of the genesis height (what the real BeginBlock of the
 * first block stores): the header fields known at genesis and the validator
 * set, sorted by operator address.
 */
async function trackHistoricalInfo(store: KVStore, ctx: ExecContext, operators: Uint8Array[]): Promise<void> {
  const validatorType = ctx.codec.type(VALIDATOR_TYPE);
  const valset: ProtoMessage[] = [];
  for (const operator of [...operators].sort(compareBytes)) {
    const bytes = await store.get(validatorKey(operator));
    if (bytes) valset.push(validatorType.decode(bytes));
  }
  const proposer = [...valset].sort((a, b) => (validatorTokens(b) > validatorTokens(a) ? 1 : validatorTokens(b) < validatorTokens(a) ? -1 : 0))[0];
  const header: ProtoMessage = {
    version: { block: 11, app: 0 },
    chain_id: ctx.chain.chainId,
    height: ctx.height,
    time: toTimestamp(ctx.time),
    last_block_id: { part_set_header: {} },
  };
  if (proposer) header.proposer_address = consensusAddressOf(proposer, ctx);
  store.set(historicalInfoKey(ctx.height), ctx.codec.type("core.staking.v1beta1.HistoricalInfo").encode({ header, valset }).finish());
}
