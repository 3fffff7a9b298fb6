import protobuf from "protobufjs";
import type { Codec } from "../../codec/codec.js";
import { fieldText } from "../../codec/fieldText.js";
import { neutralTypeUrl } from "../../codec/typeRegistry.js";
import { concatBytes } from "../store/keyEncoding.js";
import { modulePrefix } from "../store/moduleStore.js";
import { ACCOUNT_PREFIX, baseAccountOf } from "../modules/auth/keeper.js";
import { BALANCES_PREFIX } from "../modules/bank/keys.js";
import { ADDRESS_LENGTH, DELEGATION_PREFIX } from "../modules/staking/keys.js";
import { COMPLETE_KEY, COMPLETE_VALUE, INDEX_STORE, PRESENT, addressByNumberKey, delegationByValidatorKey, holderByAmountKey, holderKey } from "./indexKeys.js";
import { decodeCoin } from "../modules/bank/coinValues.js";

/** A state write: a value set, or (undefined) the key deleted. */
export interface StateWrite {
  key: Uint8Array;
  value: Uint8Array | undefined;
}

/** Where the index writes go: the block's commit batch (or the first version's). */
export interface IndexTarget {
  set(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
}

const INDEX = modulePrefix(INDEX_STORE);
const DELEGATIONS = concatBytes(modulePrefix("staking"), DELEGATION_PREFIX);
const BALANCES = concatBytes(modulePrefix("bank"), BALANCES_PREFIX);
const ACCOUNTS = concatBytes(modulePrefix("auth"), ACCOUNT_PREFIX);
const decoder = new TextDecoder();

/**
 * The derived indexes' writes for a set of state writes (a block's, or the
 * whole first version's): each delegation, balance and account written or
 * deleted moves its index entry. Linear in the writes; reads nothing.
 * An account is never deleted by this chain's modules, so its number's entry
 * only ever appears.
 */
export function putIndexWrites(target: IndexTarget, writes: Iterable<StateWrite>, codec: Codec): void {
  for (const { key, value } of writes) {
    if (startsWith(key, DELEGATIONS)) {
      const rest = key.subarray(DELEGATIONS.length);
      if (rest.length !== 2 * ADDRESS_LENGTH) continue;
      const indexKey = full(delegationByValidatorKey(rest.subarray(ADDRESS_LENGTH), rest.subarray(0, ADDRESS_LENGTH)));
      if (value) target.set(indexKey, PRESENT);
      else target.delete(indexKey);
    } else if (startsWith(key, BALANCES)) {
      const rest = key.subarray(BALANCES.length);
      if (rest.length <= ADDRESS_LENGTH) continue;
      const denom = decoder.decode(rest.subarray(ADDRESS_LENGTH));
      const holder = rest.subarray(0, ADDRESS_LENGTH);
      const indexKey = full(holderKey(denom, holder));
      if (value) {
        target.set(indexKey, PRESENT);
        // the entry of the earlier amount is taken out by removeEarlierAmounts, which reads it
        target.set(full(holderByAmountKey(denom, decodeCoin(value).amount, holder)), PRESENT);
      } else target.delete(indexKey);
    } else if (value && startsWith(key, ACCOUNTS)) {
      const number = accountNumberOf(value, codec);
      if (number !== undefined) target.set(full(addressByNumberKey(number)), key.slice(ACCOUNTS.length));
    }
  }
}

/**
 * The holders-by-amount entries a block's balance writes replace: each
 * written balance's amount before the block (read from the state the block
 * builds on) leaves the index. Called before putIndexWrites, whose entry for
 * the new amount then stands (the same key when the amount did not change).
 */
export async function removeEarlierAmounts(
  target: IndexTarget,
  writes: Iterable<StateWrite>,
  before: (key: Uint8Array) => Promise<Uint8Array | undefined>,
): Promise<void> {
  for (const { key } of writes) {
    if (!startsWith(key, BALANCES)) continue;
    const rest = key.subarray(BALANCES.length);
    if (rest.length <= ADDRESS_LENGTH) continue;
    const earlier = await before(key);
    if (earlier)
      target.delete(full(holderByAmountKey(decoder.decode(rest.subarray(ADDRESS_LENGTH)), decodeCoin(earlier).amount, rest.subarray(0, ADDRESS_LENGTH))));
  }
}

/** Marks a version's indexes as built from its whole state (the first version's writes are the whole state). */
export function markIndexesComplete(target: IndexTarget): void {
  target.set(full(COMPLETE_KEY), COMPLETE_VALUE);
}

function full(indexKey: Uint8Array): Uint8Array {
  return concatBytes(INDEX, indexKey);
}

/**
 * The account number inside a stored account (an Any of any account type);
 * undefined when it does not decode. The account types of the SDK are read
 * field by field (a genesis of a million accounts indexes them all): the
 * BaseAccount's account_number (3) under ModuleAccount's base_account (1) or
 * a vesting account's base_vesting_account (1) → base_account (1). Other
 * types are decoded whole.
 */
function accountNumberOf(bytes: Uint8Array, codec: Codec): bigint | undefined {
  try {
    const typeUrl = new TextDecoder().decode(field(bytes, 1) ?? new Uint8Array());
    let message = field(bytes, 2) ?? new Uint8Array();
    const name = typeUrl.slice(typeUrl.lastIndexOf(".") + 1);
    const depth = name === "BaseAccount" ? 0 : name === "ModuleAccount" || name === "BaseVestingAccount" ? 1 : name.endsWith("VestingAccount") ? 2 : undefined;
    if (depth === undefined) return decodedAccountNumber(typeUrl, message, codec);
    for (let i = 0; i < depth; i++) message = field(message, 1) ?? new Uint8Array();
    return varintField(message, 3) ?? 0n;
  } catch {
    return undefined;
  }
}

function decodedAccountNumber(typeUrl: string, value: Uint8Array, codec: Codec): bigint {
  const type = codec.type(neutralTypeUrl(typeUrl).slice(1));
  const account = type.toObject(type.decode(value), { longs: String });
  return BigInt(fieldText(baseAccountOf(account).account_number, "0"));
}

/** The bytes of a length-delimited field of a protobuf message (its last occurrence), undefined when absent. */
function field(message: Uint8Array, number: number): Uint8Array | undefined {
  const reader = protobuf.Reader.create(message);
  let found: Uint8Array | undefined;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === number && (tag & 7) === 2) found = reader.bytes();
    else reader.skipType(tag & 7);
  }
  return found;
}

/** A varint field's value (its last occurrence), undefined when absent. */
function varintField(message: Uint8Array, number: number): bigint | undefined {
  const reader = protobuf.Reader.create(message);
  let found: bigint | undefined;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === number && (tag & 7) === 0) found = uint64Of(reader.uint64());
    else reader.skipType(tag & 7);
  }
  return found;
}

/** A protobufjs uint64 (its two 32-bit halves) as a bigint. */
function uint64Of(value: { low: number; high: number }): bigint {
  return (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0);
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}
