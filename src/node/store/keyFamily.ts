import { compareBytes, prefixEnd } from "./keyEncoding.js";

const SLASH = 0x2f;

/**
 * Where the key family of `key` ends: the keys that share its module's store
 * prefix ("<module>/", moduleStore.ts) and the first byte after it, which
 * names a kind of entry (bank's balances, staking's validators, staking's
 * historical info…). Undefined when `key` names no family (no "/" with a byte after it).
 * Any bytes before the module's name (a namespace byte) are part of the family.
 */
export function keyFamilyEnd(key: Uint8Array): Uint8Array | undefined {
  const slash = key.indexOf(SLASH);
  return slash >= 0 && slash + 1 < key.length ? prefixEnd(key.subarray(0, slash + 2)) : undefined;
}

/**
 * Where a fill (a read kept for the scans that follow) from `lower` stops:
 * at the next kept range (`gapEnd`; undefined: none) or at the end of the
 * key family `lower` is in, whichever comes first. A fill keeps the
 * neighbours of a short scan (a thousand accounts' balances), not another
 * kind of entry that happens to follow (a query of the validators once read
 * on into every historical info, large values that each block adds to).
 */
export function fillBound(lower: Uint8Array, gapEnd: Uint8Array | undefined): Uint8Array | undefined {
  const familyEnd = keyFamilyEnd(lower);
  if (familyEnd === undefined) return gapEnd;
  return gapEnd === undefined || compareBytes(familyEnd, gapEnd) < 0 ? familyEnd : gapEnd;
}
