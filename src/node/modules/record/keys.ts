import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "../../store/keyEncoding.js";

/** Store layout (irismod v1.3.1 record types/keys.go): 0x01 | record id → Record; 0x02 → UInt32Value, the records added so far. */
export const RECORD_PREFIX = Uint8Array.of(0x01);
export const COUNTER_KEY = Uint8Array.of(0x02);
export const recordKey = (id: Uint8Array) => concatBytes(RECORD_PREFIX, id);

/**
 * A record id: SHA-256(the record's protobuf bytes | the counter, 4 bytes big-endian). The real
 * keeper calls the counter "intra-tx" but never resets it: it counts every record ever added,
 * genesis records included.
 */
export function recordId(recordBytes: Uint8Array, counter: number): Uint8Array {
  const counter32 = new Uint8Array(4);
  new DataView(counter32.buffer).setUint32(0, counter);
  return sha256(concatBytes(recordBytes, counter32));
}
