import { concatBytes } from "../../store/keyEncoding.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

/**
 * Store layout of x/slashing as SDK v0.41 keeps it (addresses without a length byte; that came in v0.43),
 * so that a raw `/store/slashing/key` read of 0x01 ‖ consensus address answers the signing info:
 * Params: MODULE_PARAMS_KEY (the real app keeps them in x/params);
 * 0x01 | consensus address → ValidatorSigningInfo;
 * 0x02 | consensus address | index (8, little-endian) → missed (BoolValue);
 * 0x03 | consensus address → the validator's consensus public key (Any).
 */
export const PARAMS_KEY = MODULE_PARAMS_KEY;
export const SIGNING_INFO_PREFIX = Uint8Array.of(0x01);
export const MISSED_BLOCK_PREFIX = Uint8Array.of(0x02);
const PUBKEY_PREFIX = Uint8Array.of(0x03);

export const SIGNING_INFO_TYPE = "core.slashing.v1beta1.ValidatorSigningInfo";

export const signingInfoKey = (consensus: Uint8Array) => concatBytes(SIGNING_INFO_PREFIX, consensus);
export const pubkeyKey = (consensus: Uint8Array) => concatBytes(PUBKEY_PREFIX, consensus);
export const missedBlocksPrefix = (consensus: Uint8Array) => concatBytes(MISSED_BLOCK_PREFIX, consensus);

export function missedBlockKey(consensus: Uint8Array, index: bigint): Uint8Array {
  const indexBytes = new Uint8Array(8);
  new DataView(indexBytes.buffer).setBigUint64(0, index, true);
  return concatBytes(missedBlocksPrefix(consensus), indexBytes);
}

/** gogotypes.BoolValue: true is 0x08 0x01, false the empty message. */
export const encodeMissed = (missed: boolean) => (missed ? Uint8Array.of(0x08, 0x01) : new Uint8Array());
export const decodeMissed = (bytes: Uint8Array | undefined) => bytes !== undefined && bytes.length >= 2 && bytes[1] === 1;
