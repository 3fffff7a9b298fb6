import type { Codec } from "../../codec/codec.js";
import { fieldText } from "../../codec/fieldText.js";
import { neutralTypeUrl } from "../../codec/typeRegistry.js";
import { concatBytes } from "../store/keyEncoding.js";
import { modulePrefix } from "../store/moduleStore.js";
import { ACCOUNT_PREFIX, baseAccountOf } from "../modules/auth/keeper.js";
import { BALANCES_PREFIX } from "../modules/bank/keys.js";
import { ADDRESS_LENGTH, DELEGATION_PREFIX } from "../modules/staking/keys.js";
import { COMPLETE_KEY, COMPLETE_VALUE, INDEX_STORE, PRESENT, addressByNumberKey, delegationByValidatorKey, holderKey } from "./indexKeys.js";

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
      const indexKey = full(holderKey(decoder.decode(rest.subarray(ADDRESS_LENGTH)), rest.subarray(0, ADDRESS_LENGTH)));
      if (value) target.set(indexKey, PRESENT);
      else target.delete(indexKey);
    } else if (value && startsWith(key, ACCOUNTS)) {
      const number = accountNumberOf(value, codec);
      if (number !== undefined) target.set(full(addressByNumberKey(number)), key.slice(ACCOUNTS.length));
    }
  }
}

/** Marks a version's indexes as built from its whole state (the first version's writes are the whole state). */
export function markIndexesComplete(target: IndexTarget): void {
  target.set(full(COMPLETE_KEY), COMPLETE_VALUE);
}

function full(indexKey: Uint8Array): Uint8Array {
  return concatBytes(INDEX, indexKey);
}

/** The account number inside a stored account (an Any of any account type); undefined when it does not decode. */
function accountNumberOf(bytes: Uint8Array, codec: Codec): bigint | undefined {
  try {
    const any = codec.type("google.protobuf.Any").decode(bytes) as unknown as { type_url: string; value: Uint8Array };
    const type = codec.type(neutralTypeUrl(any.type_url).slice(1));
    const account = type.toObject(type.decode(any.value), { longs: String });
    return BigInt(fieldText(baseAccountOf(account).account_number, "0"));
  } catch {
    return undefined;
  }
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}
