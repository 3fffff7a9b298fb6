import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

/**
 * Store layout of x/bank in v0.41 (cosmos-sdk v0.41.x x/bank/types/key.go):
 *   0x00 → Supply as an Any (MarshalInterface): every denom's total in one entry;
 *   0x01 | denom → Metadata;
 *   "balances" | address | denom → Coin (no length byte: that came with v0.43).
 * Parameters: MODULE_PARAMS_KEY (v0.41 keeps them in the params store).
 */
export const SUPPLY_KEY = Uint8Array.of(0x00);
export const METADATA_PREFIX = Uint8Array.of(0x01);
export const BALANCES_PREFIX = utf8("balances");
export const PARAMS_KEY = MODULE_PARAMS_KEY;

export const balancesPrefix = (address: Uint8Array) => concatBytes(BALANCES_PREFIX, address);
export const balanceKey = (address: Uint8Array, denom: string) => concatBytes(balancesPrefix(address), utf8(denom));
