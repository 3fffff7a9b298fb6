import { concatBytes, uint64Bytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { fieldText } from "../../../codec/fieldText.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";
import { encodeStringValue } from "../../store/wrapperValues.js";

/**
 * Store layout of x/staking in v0.41 (cosmos-sdk v0.41.x x/staking/types/keys.go), addresses
 * as they are (20 bytes, no length byte):
 *
 *   MODULE_PARAMS_KEY                      → Params (v0.41: the params store)
 *   0x11 | operator                  → last consensus power (Int64Value)
 *   0x12                                   → last total power (sdk.IntProto)
 *   0x21 | operator                  → Validator
 *   0x22 | consensus address         → operator address bytes
 *   0x23 | power (8, BE) | ^operator → operator address bytes (power index, jailed validators left out)
 *   0x31 | delegator | operator → Delegation
 *   0x32 | delegator | operator → UnbondingDelegation
 *   0x33 | operator | delegator → (empty: index of 0x32 by validator)
 *   0x34 | delegator | src | dst → Redelegation
 *   0x35 | src | delegator | dst → (empty: index by source)
 *   0x36 | dst | delegator | src → (empty: index by destination)
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
const VALIDATOR_BY_CONS_PREFIX = Uint8Array.of(0x22);
export const POWER_INDEX_PREFIX = Uint8Array.of(0x23);
export const DELEGATION_PREFIX = Uint8Array.of(0x31);
export const UNBONDING_PREFIX = Uint8Array.of(0x32);
const UNBONDING_BY_VALIDATOR_PREFIX = Uint8Array.of(0x33);
export const REDELEGATION_PREFIX = Uint8Array.of(0x34);
const REDELEGATION_BY_SRC_PREFIX = Uint8Array.of(0x35);
export const REDELEGATION_BY_DST_PREFIX = Uint8Array.of(0x36);
export const UNBONDING_QUEUE_PREFIX = Uint8Array.of(0x41);
export const REDELEGATION_QUEUE_PREFIX = Uint8Array.of(0x42);
export const VALIDATOR_QUEUE_PREFIX = Uint8Array.of(0x43);
const HISTORICAL_INFO_PREFIX = Uint8Array.of(0x50);

/** sdk.IntProto{Int} (the last total power): field 1, the integer's text, as a StringValue's wire form. */
export const encodeIntProto = (value: bigint) => encodeStringValue(value.toString());

/** v0.41's sdk.AddrLen: every account, validator and consensus address is 20 bytes. */
export const ADDRESS_LENGTH = 20;

/**
 * An address as a part of a key: as it is, in v0.41 (types/address.go MustLengthPrefix, the
 * length byte in front, came with v0.43).
 */
export const addressPart = (address: Uint8Array) => address;

/** Splits a key made of addresses into the addresses (20 bytes each). */
export function splitAddresses(key: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < key.length; i += ADDRESS_LENGTH) parts.push(key.slice(i, i + ADDRESS_LENGTH));
  return parts;
}

export const validatorKey = (operator: Uint8Array) => concatBytes(VALIDATORS_PREFIX, addressPart(operator));
export const validatorByConsKey = (consensus: Uint8Array) => concatBytes(VALIDATOR_BY_CONS_PREFIX, addressPart(consensus));
export const lastValidatorPowerKey = (operator: Uint8Array) => concatBytes(LAST_VALIDATOR_POWER_PREFIX, addressPart(operator));

export function powerIndexKey(operator: Uint8Array, consensusPower: bigint): Uint8Array {
  const power = new Uint8Array(8);
  new DataView(power.buffer).setBigUint64(0, consensusPower);
  return concatBytes(POWER_INDEX_PREFIX, power, addressPart(operator.map((b) => ~b & 0xff)));
}

export const delegationsOfPrefix = (delegator: Uint8Array) => concatBytes(DELEGATION_PREFIX, addressPart(delegator));
export const delegationKey = (delegator: Uint8Array, operator: Uint8Array) => concatBytes(delegationsOfPrefix(delegator), addressPart(operator));

export const unbondingsOfPrefix = (delegator: Uint8Array) => concatBytes(UNBONDING_PREFIX, addressPart(delegator));
export const unbondingKey = (delegator: Uint8Array, operator: Uint8Array) => concatBytes(unbondingsOfPrefix(delegator), addressPart(operator));
export const unbondingsByValidatorPrefix = (operator: Uint8Array) => concatBytes(UNBONDING_BY_VALIDATOR_PREFIX, addressPart(operator));
export const unbondingByValidatorKey = (operator: Uint8Array, delegator: Uint8Array) =>
  concatBytes(unbondingsByValidatorPrefix(operator), addressPart(delegator));

export const redelegationsOfPrefix = (delegator: Uint8Array) => concatBytes(REDELEGATION_PREFIX, addressPart(delegator));
export const redelegationKey = (delegator: Uint8Array, src: Uint8Array, dst: Uint8Array) =>
  concatBytes(redelegationsOfPrefix(delegator), addressPart(src), addressPart(dst));
export const redelegationsBySrcPrefix = (src: Uint8Array) => concatBytes(REDELEGATION_BY_SRC_PREFIX, addressPart(src));
export const redelegationBySrcKey = (src: Uint8Array, delegator: Uint8Array, dst: Uint8Array) =>
  concatBytes(redelegationsBySrcPrefix(src), addressPart(delegator), addressPart(dst));
export const redelegationByDstKey = (dst: Uint8Array, delegator: Uint8Array, src: Uint8Array) =>
  concatBytes(REDELEGATION_BY_DST_PREFIX, addressPart(dst), addressPart(delegator), addressPart(src));

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
