import { concatBytes } from "../../store/keyEncoding.js";

/** Store layout (the hub's guardian keys): 0x00 | address bytes → Super. */
export const SUPER_PREFIX = Uint8Array.of(0x00);
export const superKey = (address: Uint8Array) => concatBytes(SUPER_PREFIX, address);

/** Super.account_type: GENESIS supers (0, the proto3 default) may add and delete supers; ORDINARY ones (1) may not. */
export const GENESIS = 0;
export const ORDINARY = 1;
