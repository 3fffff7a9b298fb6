import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";

/**
 * Store layout of the bank module: 0x00 → Params; 0x01 | denom → Metadata;
 * 0x02 | len(address) | address | denom → amount; 0x03 | denom → supply amount.
 * Amounts are stored as their integer text.
 */
export const PARAMS_KEY = Uint8Array.of(0x00);
export const METADATA_PREFIX = Uint8Array.of(0x01);
export const BALANCE_PREFIX = Uint8Array.of(0x02);
export const SUPPLY_PREFIX = Uint8Array.of(0x03);

export const balancesPrefix = (address: Uint8Array) => concatBytes(BALANCE_PREFIX, Uint8Array.of(address.length), address);
export const supplyKey = (denom: string) => concatBytes(SUPPLY_PREFIX, utf8(denom));
