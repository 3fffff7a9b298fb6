import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { bigEndian64 } from "../service/keys.js";

/**
 * Store layout (irismod v1.3.1 random/types/keys.go):
 *   0x01 | request id (32 bytes)                       → Random
 *   0x02 | generation height (8) | request id          → Request   (the pending queue)
 *   0x03 | service request context id (40 bytes)    → Request   (oracle requests waiting for their seed)
 * A request id is SHA-256(request height (8, big-endian) | consumer address text).
 */
export const RANDOM_PREFIX = Uint8Array.of(0x01);
export const QUEUE_PREFIX = Uint8Array.of(0x02);
export const randomKey = (id: Uint8Array) => concatBytes(RANDOM_PREFIX, id);
export const oracleRequestKey = (contextId: Uint8Array) => concatBytes(Uint8Array.of(0x03), contextId);
export const queueHeightPrefix = (height: bigint) => concatBytes(QUEUE_PREFIX, bigEndian64(height));

/** GenerateRequestID. */
export function randomRequestId(requestHeight: bigint, consumer: string): Uint8Array {
  return sha256(concatBytes(bigEndian64(requestHeight), utf8(consumer)));
}
