import { concatBytes } from "../../store/keyEncoding.js";
import { addressPart } from "../staking/keys.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

/**
 * Store layout of x/distribution in v0.41 (cosmos-sdk v0.41.x x/distribution/types/keys.go),
 * addresses as they are (20 bytes, no length byte):
 *
 *   0x00                                         → FeePool
 *   0x01                                         → previous proposer consensus address (BytesValue)
 *   0x02 | operator                        → ValidatorOutstandingRewards
 *   0x03 | delegator                       → withdraw address bytes
 *   0x04 | operator | delegator      → DelegatorStartingInfo
 *   0x05 | operator | period (8, LE)       → ValidatorHistoricalRewards
 *   0x06 | operator                        → ValidatorCurrentRewards
 *   0x07 | operator                        → ValidatorAccumulatedCommission
 *   0x08 | operator | height (8, BE) | period (8, BE) → ValidatorSlashEvent
 *   MODULE_PARAMS_KEY                            → Params (v0.41: the params store)
 */
export const FEE_POOL_KEY = Uint8Array.of(0x00);
export const PROPOSER_KEY = Uint8Array.of(0x01);
export const OUTSTANDING_PREFIX = Uint8Array.of(0x02);
export const WITHDRAW_ADDRESS_PREFIX = Uint8Array.of(0x03);
export const STARTING_INFO_PREFIX = Uint8Array.of(0x04);
export const HISTORICAL_PREFIX = Uint8Array.of(0x05);
export const CURRENT_PREFIX = Uint8Array.of(0x06);
export const COMMISSION_PREFIX = Uint8Array.of(0x07);
export const SLASH_EVENT_PREFIX = Uint8Array.of(0x08);
export const PARAMS_KEY = MODULE_PARAMS_KEY;

function uint64(value: bigint, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, littleEndian);
  return out;
}

export const outstandingKey = (operator: Uint8Array) => concatBytes(OUTSTANDING_PREFIX, addressPart(operator));
export const withdrawAddressKey = (delegator: Uint8Array) => concatBytes(WITHDRAW_ADDRESS_PREFIX, addressPart(delegator));
export const startingInfoKey = (operator: Uint8Array, delegator: Uint8Array) =>
  concatBytes(STARTING_INFO_PREFIX, addressPart(operator), addressPart(delegator));
export const historicalRewardsPrefix = (operator: Uint8Array) => concatBytes(HISTORICAL_PREFIX, addressPart(operator));
export const historicalRewardsKey = (operator: Uint8Array, period: bigint) => concatBytes(historicalRewardsPrefix(operator), uint64(period, true));
export const currentRewardsKey = (operator: Uint8Array) => concatBytes(CURRENT_PREFIX, addressPart(operator));
export const commissionKey = (operator: Uint8Array) => concatBytes(COMMISSION_PREFIX, addressPart(operator));
export const slashEventsPrefix = (operator: Uint8Array) => concatBytes(SLASH_EVENT_PREFIX, addressPart(operator));
export const slashEventKey = (operator: Uint8Array, height: bigint, period: bigint) =>
  concatBytes(slashEventsPrefix(operator), uint64(height, false), uint64(period, false));

/** The height of a slash event from its key relative to slashEventsPrefix. */
export const slashEventHeight = (key: Uint8Array) => new DataView(key.buffer, key.byteOffset, 8).getBigUint64(0);
export const heightBytes = (height: bigint) => uint64(height, false);
