import protobuf from "protobufjs";
import { consensusAddressBytes } from "../../../codec/addresses.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { bech32Prefixes } from "../../../codec/addresses.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVReader } from "../../store/kv.js";
import type { ModuleContext } from "../nodeModule.js";
import { decFromWire, decMulInt, decQuo, decQuoTruncate } from "../shared/decMath.js";
import {
  LAST_VALIDATOR_POWER_PREFIX,
  PARAMS_KEY,
  POWER_INDEX_PREFIX,
  delegationKey,
  delegationsOfPrefix,
  splitAddresses,
  validatorByConsKey,
  validatorKey,
} from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";

/** sdk.PowerReduction: tokens per unit of consensus power. */
export const POWER_REDUCTION = 1_000_000n;

export const BondStatus = { unspecified: 0, unbonded: 1, unbonding: 2, bonded: 3 } as const;

export const VALIDATOR_TYPE = "core.staking.v1beta1.Validator";
export const DELEGATION_TYPE = "core.staking.v1beta1.Delegation";

export async function getStakingParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type("core.staking.v1beta1.Params").decode(bytes) : {};
}

export async function bondDenom(store: KVReader, ctx: ModuleContext): Promise<string> {
  return fieldText((await getStakingParams(store, ctx)).bond_denom);
}

export async function getValidator(store: KVReader, ctx: ModuleContext, operator: Uint8Array): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(validatorKey(operator));
  return bytes ? decodeValidator(bytes, ctx) : undefined;
}

export function decodeValidator(bytes: Uint8Array, ctx: ModuleContext): ProtoMessage {
  return ctx.codec.type(VALIDATOR_TYPE).decode(bytes);
}

export async function getValidatorByConsensusAddress(store: KVReader, ctx: ModuleContext, consensus: Uint8Array): Promise<ProtoMessage | undefined> {
  const operator = await store.get(validatorByConsKey(consensus));
  return operator ? getValidator(store, ctx, operator) : undefined;
}

/** The operator address bytes of a validator. */
export function operatorBytes(validator: ProtoMessage, ctx: ModuleContext): Uint8Array {
  return decodeBech32Address(String(validator.operator_address), bech32Prefixes(ctx.chain.bech32Prefix).validatorOperator, "operator_address");
}

/** The raw ed25519 consensus public key of a validator. */
export function consensusPublicKey(validator: ProtoMessage, ctx: ModuleContext): Uint8Array {
  const any = (validator.consensus_pubkey ?? {}) as ProtoMessage;
  const type = ctx.codec.type(fieldText(any.type_url).replace(/^\//, ""));
  return (type.decode((any.value as Uint8Array) ?? new Uint8Array()) as unknown as { key: Uint8Array }).key;
}

export function consensusAddressOf(validator: ProtoMessage, ctx: ModuleContext): Uint8Array {
  return consensusAddressBytes(consensusPublicKey(validator, ctx));
}

export const validatorTokens = (validator: ProtoMessage) => BigInt(fieldText(validator.tokens, "0"));
export const validatorShares = (validator: ProtoMessage) => decFromWire(validator.delegator_shares as string);

/** sdk.TokensToConsensusPower */
export const consensusPower = (tokens: bigint) => tokens / POWER_REDUCTION;

/** Validator.TokensFromShares: shares × tokens / delegator shares, as a Dec (rounded). */
export function tokensFromShares(validator: ProtoMessage, shares: bigint): bigint {
  const total = validatorShares(validator);
  return total === 0n ? 0n : decQuo(decMulInt(shares, validatorTokens(validator)), total);
}

/** Validator.TokensFromSharesTruncated */
export function tokensFromSharesTruncated(validator: ProtoMessage, shares: bigint): bigint {
  const total = validatorShares(validator);
  return total === 0n ? 0n : decQuoTruncate(decMulInt(shares, validatorTokens(validator)), total);
}

/** Validator.SharesFromTokens: delegator shares × amount ÷ tokens (Dec.QuoInt, truncated). */
export function sharesFromTokens(validator: ProtoMessage, tokens: bigint): bigint {
  return decMulInt(validatorShares(validator), tokens) / validatorTokens(validator);
}

/**
 * The bonded validators, highest consensus power first (ties: lower operator
 * address first), at most max_validators: GetBondedValidatorsByPower.
 */
export async function bondedValidatorsByPower(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage[]> {
  const max = Number((await getStakingParams(store, ctx)).max_validators ?? 0);
  const operators: Uint8Array[] = [];
  for await (const [, operator] of store.iterate(POWER_INDEX_PREFIX)) operators.push(operator);
  const bonded: ProtoMessage[] = [];
  for (const operator of operators.reverse()) {
    if (bonded.length >= max) break;
    const validator = await getValidator(store, ctx, operator);
    if (validator && validator.status === BondStatus.bonded) bonded.push(validator);
  }
  return bonded;
}

/** The consensus power each validator had at the end of the last block (what the consensus engine uses). */
export async function lastValidatorPowers(store: KVReader): Promise<Array<{ operator: Uint8Array; power: bigint }>> {
  const out: Array<{ operator: Uint8Array; power: bigint }> = [];
  for await (const [key, value] of store.iterate(LAST_VALIDATOR_POWER_PREFIX)) {
    out.push({ operator: splitAddresses(key)[0]!, power: BigInt(decodeInt64Value(value)) });
  }
  return out;
}

export async function getDelegation(store: KVReader, ctx: ModuleContext, delegator: Uint8Array, operator: Uint8Array): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(delegationKey(delegator, operator));
  return bytes ? ctx.codec.type(DELEGATION_TYPE).decode(bytes) : undefined;
}

/** All delegations of a delegator, in store order (by validator operator address). */
export async function delegationsOf(store: KVReader, ctx: ModuleContext, delegator: Uint8Array): Promise<ProtoMessage[]> {
  const type = ctx.codec.type(DELEGATION_TYPE);
  const out: ProtoMessage[] = [];
  for await (const [, value] of store.iterate(delegationsOfPrefix(delegator))) out.push(type.decode(value));
  return out;
}

/** gogotypes.Int64Value, as the real store keeps a validator's last power. */
export function encodeInt64Value(value: bigint): Uint8Array {
  const writer = protobuf.Writer.create();
  if (value !== 0n) writer.uint32(8).int64(value.toString());
  return writer.finish();
}

function decodeInt64Value(bytes: Uint8Array): string {
  const reader = protobuf.Reader.create(bytes);
  let value = "0";
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag === 8) value = fieldText(reader.int64());
    else reader.skipType(tag & 7);
  }
  return value;
}
