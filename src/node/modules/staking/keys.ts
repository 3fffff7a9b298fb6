import { concatBytes, uint64Bytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { fieldText } from "../../../codec/fieldText.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

/**
 * Store layout of the staking module (the real x/staking prefixes, addresses
 * length-prefixed as in the house layout):
 *
 *   MODULE_PARAMS_KEY                      → Params (v0.41: the params store)
 *   0x11 | len | operator                  → last consensus power (Int64Value)
 *   0x12                                   → last total power (Int text)
 *   0x21 | len | operator                  → Validator
 *   0x22 | len | consensus address         → operator address bytes
 *   0x23 | power (8, BE) | len | ^operator → operator address bytes (power index, jailed validators left out)
 *   0x31 | len | delegator | len | operator → Delegation
 *   0x32 | len | delegator | len | operator → UnbondingDelegation
 *   0x33 | len | operator | len | delegator → (empty: index of 0x32 by validator)
 *   0x34 | len | delegator | len | src | len | dst → Redelegation
 *   0x35 | len | src | len | delegator | len | dst → (empty: index by source)
 *   0x36 | len | dst | len | delegator | len | src → (empty: index by destination)
 *   0x41 | time                            → DVPairs (unbonding queue)
 *   0x42 | time                            → DVVTriplets (redelegation queue)
 *   0x43 | len(time) (8, BE) | time | height (8, BE) → ValAddresses (unbonding validator queue)
 *   0x50 | height as decimal text          → HistoricalInfo
 *
 * `time` is sdk.FormatTimeBytes: "2006-01-02T15:04:05.000000000" in UTC.
 */
export const PARAMS_KEY = MODULE_PARAMS_KEY;
export const LAST_VALIDATOR_POWER_PREFIX = Uint8Array.of(0x11);
export const LAST_TOTAL_POWER_KEY = Uint8Array.of(0x12);
export const VALIDATORS_PREFIX = Uint8Array.of(0x21);
export const VALIDATOR_BY_CONS_PREFIX = Uint8Array.of(0x22);
export const POWER_INDEX_PREFIX = Uint8Array.of(0x23);
export const DELEGATION_PREFIX = Uint8Array.of(0x31);
export const UNBONDING_PREFIX = Uint8Array.of(0x32);
export const UNBONDING_BY_VALIDATOR_PREFIX = Uint8Array.of(0x33);
export const REDELEGATION_PREFIX = Uint8Array.of(0x34);
export const REDELEGATION_BY_SRC_PREFIX = Uint8Array.of(0x35);
export const REDELEGATION_BY_DST_PREFIX = Uint8Array.of(0x36);
export const UNBONDING_QUEUE_PREFIX = Uint8Array.of(0x41);
export const REDELEGATION_QUEUE_PREFIX = Uint8Array.of(0x42);
export const VALIDATOR_QUEUE_PREFIX = Uint8Array.of(0x43);
export const HISTORICAL_INFO_PREFIX = Uint8Array.of(0x50);

/** An address with its length byte in front (address.MustLengthPrefix). */
export const lengthPrefixed = (address: Uint8Array) => concatBytes(Uint8Array.of(address.length), address);

/** Splits a key made of length-prefixed addresses into the addresses. */
export function splitLengthPrefixed(key: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < key.length;) {
    const length = key[i]!;
    parts.push(key.slice(i + 1, i + 1 + length));
    i += 1 + length;
  }
  return parts;
}

export const validatorKey = (operator: Uint8Array) => concatBytes(VALIDATORS_PREFIX, lengthPrefixed(operator));
export const validatorByConsKey = (consensus: Uint8Array) => concatBytes(VALIDATOR_BY_CONS_PREFIX, lengthPrefixed(consensus));
export const lastValidatorPowerKey = (operator: Uint8Array) => concatBytes(LAST_VALIDATOR_POWER_PREFIX, lengthPrefixed(operator));

export function powerIndexKey(operator: Uint8Array, consensusPower: bigint): Uint8Array {
  const power = new Uint8Array(8);
  new DataView(power.buffer).setBigUint64(0, consensusPower);
  return concatBytes(POWER_INDEX_PREFIX, power, lengthPrefixed(operator.map((b) => ~b & 0xff)));
}

export const delegationsOfPrefix = (delegator: Uint8Array) => concatBytes(DELEGATION_PREFIX, lengthPrefixed(delegator));
export const delegationKey = (delegator: Uint8Array, operator: Uint8Array) => concatBytes(delegationsOfPrefix(delegator), lengthPrefixed(operator));

export const unbondingsOfPrefix = (delegator: Uint8Array) => concatBytes(UNBONDING_PREFIX, lengthPrefixed(delegator));
export const unbondingKey = (delegator: Uint8Array, operator: Uint8Array) => concatBytes(unbondingsOfPrefix(delegator), lengthPrefixed(operator));
export const unbondingsByValidatorPrefix = (operator: Uint8Array) => concatBytes(UNBONDING_BY_VALIDATOR_PREFIX, lengthPrefixed(operator));
export const unbondingByValidatorKey = (operator: Uint8Array, delegator: Uint8Array) =>
  concatBytes(unbondingsByValidatorPrefix(operator), lengthPrefixed(delegator));

export const redelegationsOfPrefix = (delegator: Uint8Array) => concatBytes(REDELEGATION_PREFIX, lengthPrefixed(delegator));
export const redelegationKey = (delegator: Uint8Array, src: Uint8Array, dst: Uint8Array) =>
  concatBytes(redelegationsOfPrefix(delegator), lengthPrefixed(src), lengthPrefixed(dst));
export const redelegationsBySrcPrefix = (src: Uint8Array) => concatBytes(REDELEGATION_BY_SRC_PREFIX, lengthPrefixed(src));
export const redelegationBySrcKey = (src: Uint8Array, delegator: Uint8Array, dst: Uint8Array) =>
  concatBytes(redelegationsBySrcPrefix(src), lengthPrefixed(delegator), lengthPrefixed(dst));
export const redelegationByDstKey = (dst: Uint8Array, delegator: Uint8Array, src: Uint8Array) =>
  concatBytes(REDELEGATION_BY_DST_PREFIX, lengthPrefixed(dst), lengthPrefixed(delegator), lengthPrefixed(src));

export const historicalInfoKey = (height: number | bigint) => concatBytes(HISTORICAL_INFO_PREFIX, utf8(height.toString()));

/** A google.protobuf.Timestamp as decoded ({seconds, nanos}). */
export interface TimestampLike {
  seconds?: unknown;
  nanos?: unknown;
}

/** sdk.FormatTimeBytes: UTC, nanosecond precision, sortable as bytes. */
export function formatTimeBytes(time: TimestampLike): Uint8Array {
  const seconds = Number(fieldText(time.seconds, "0"));
  const nanos = Number(time.nanos ?? 0);
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return utf8(`${base}.${String(nanos).padStart(9, "0")}`);
}

export const unbondingQueueKey = (time: TimestampLike) => concatBytes(UNBONDING_QUEUE_PREFIX, formatTimeBytes(time));
export const redelegationQueueKey = (time: TimestampLike) => concatBytes(REDELEGATION_QUEUE_PREFIX, formatTimeBytes(time));

export function validatorQueueKey(time: TimestampLike, height: bigint): Uint8Array {
  const timeBytes = formatTimeBytes(time);
  return concatBytes(VALIDATOR_QUEUE_PREFIX, uint64Bytes(timeBytes.length), timeBytes, uint64Bytes(Number(height)));
}
