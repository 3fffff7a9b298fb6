import type { ClassicLevel } from "classic-level";
import { concatBytes, decodeVersioned, uint64Bytes } from "./keyEncoding.js";

/**
 * The fast index (IAVL v0.19's "fast storage"): one LevelDB entry per live key
 * holding its latest value, so that a read at the latest height is one point
 * lookup and a prefix scan one iterator over exactly the live keys. It is
 * written in the same atomic batch as the versions; the versioned keys stay
 * for reads at earlier heights.
 *
 *   'f' userKey  →  version (8 bytes, big-endian) value
 *
 * User keys are stored raw: under one namespace byte they sort as the user keys.
 * A deleted key has no entry (its tombstone lives in the versioned keys).
 */
export const FAST = 0x66; // 'f'
const VERSION_BYTES = 8;
/** The bytes of an entry before its value (the version). */
export const FAST_VALUE_HEADER = VERSION_BYTES;

export function fastKey(key: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(FAST), key);
}

export function fastValue(version: number, value: Uint8Array): Uint8Array {
  return concatBytes(uint64Bytes(version), value);
}

/** The value part of a fast-index entry. */
export function fastEntryValue(entry: Uint8Array): Uint8Array {
  return entry.subarray(VERSION_BYTES);
}

/** The version at which the entry's value was written. */
export function fastEntryVersion(entry: Uint8Array): number {
  return Number(new DataView(entry.buffer, entry.byteOffset, VERSION_BYTES).getBigUint64(0));
}

const BUILD_BATCH = 10_000;

/**
 * Fills the fast index from the versioned keys (a store written before the
 * index existed): the newest version of each key, when it is live. Versions
 * above `latest` cannot exist, so the first entry of each key's group is it.
 */
export async function buildFastIndex(db: ClassicLevel<Uint8Array, Uint8Array>, stateNamespace: number, live: number): Promise<number> {
  let ops: Array<{ type: "put"; key: Uint8Array; value: Uint8Array }> = [];
  let previous: Uint8Array | undefined;
  let count = 0;
  for await (const [rawKey, value] of db.iterator({ gte: Uint8Array.of(stateNamespace), lt: Uint8Array.of(stateNamespace + 1) })) {
    const { key, version } = decodeVersioned(rawKey.subarray(1));
    if (previous && Buffer.compare(previous, key) === 0) continue; // an older version of the same key
    previous = key;
    if (value[0] !== live) continue;
    ops.push({ type: "put", key: fastKey(key), value: fastValue(version, value.subarray(1)) });
    count++;
    if (ops.length >= BUILD_BATCH) {
      await db.batch(ops);
      ops = [];
    }
  }
  if (ops.length > 0) await db.batch(ops);
  return count;
}
