import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { concatBytes, uint64Bytes } from "../../store/keyEncoding.js";

/**
 * Store layout (the real keeper's keys):
 *   0x01 | hash lock (32 bytes)                        → HTLC
 *   0x02 | expiration height (8 bytes BE) | hash lock  → empty (the expiration queue BeginBlock walks)
 */
export const HTLC_PREFIX = Uint8Array.of(0x01);
const EXPIRED_QUEUE_PREFIX = Uint8Array.of(0x02);
export const HTLC_TYPE = "extmod.htlc.HTLC";

export const htlcKey = (hashLock: Uint8Array) => concatBytes(HTLC_PREFIX, hashLock);
export const expiredQueueKey = (expirationHeight: number, hashLock: Uint8Array) => concatBytes(EXPIRED_QUEUE_PREFIX, uint64Bytes(expirationHeight), hashLock);
export const expiredQueuePrefix = (height: number) => concatBytes(EXPIRED_QUEUE_PREFIX, uint64Bytes(height));

/** HTLCState */
export const OPEN = 0;
export const COMPLETED = 1;
export const EXPIRED = 2;
export const REFUNDED = 3;

/** The hash lock of a secret: SHA-256(secret), or SHA-256(secret | 8-byte big-endian timestamp) when a timestamp is given. */
export function hashLockOf(secret: Uint8Array, timestamp: bigint): Uint8Array {
  if (timestamp === 0n) return sha256(secret);
  const time = new Uint8Array(8);
  new DataView(time.buffer).setBigUint64(0, timestamp);
  return sha256(concatBytes(secret, time));
}

/** Go's hex.DecodeString: either case, even length; undefined when malformed. */
export function hexDecode(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return undefined;
  return hexToBytes(text.toLowerCase());
}

/** tendermint's HexBytes.String(): uppercase hex. */
export const upperHex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();
