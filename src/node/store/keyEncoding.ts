/**
 * Order-preserving encoding of versioned state keys in one LevelDB keyspace:
 *
 *   escaped(userKey) 0x00 0x00 ~version(8 bytes, big-endian)
 *
 * 0x00 inside a user key is escaped as 0x00 0xFF, so the terminator sorts
 * before any continuation and the encoded keys sort exactly as the user keys.
 * The version is stored inverted (2^64-1-h) so that the newest version of a key
 * comes first when iterating.
 */
const MAX_U64 = (1n << 64n) - 1n;

export function escapeKey(key: Uint8Array): Uint8Array {
  if (key.indexOf(0) === -1) return key; // most keys: no copy (a native search, not a JS loop)
  let zeros = 0;
  for (const b of key) if (b === 0) zeros++;
  const out = new Uint8Array(key.length + zeros);
  let j = 0;
  for (const b of key) {
    out[j++] = b;
    if (b === 0) out[j++] = 0xff;
  }
  return out;
}

export function encodeVersioned(key: Uint8Array, version: number): Uint8Array {
  const escaped = escapeKey(key);
  const out = new Uint8Array(escaped.length + 10);
  out.set(escaped, 0);
  // out[escaped.length] and [+1] stay 0x00: the terminator
  new DataView(out.buffer).setBigUint64(escaped.length + 2, MAX_U64 - BigInt(version));
  return out;
}

/** Splits an encoded key back into the user key and its version. */
export function decodeVersioned(encoded: Uint8Array): { key: Uint8Array; version: number } {
  const escapedLength = encoded.length - 10;
  const view = new DataView(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  const version = Number(MAX_U64 - view.getBigUint64(escapedLength + 2));
  return { key: unescapeKey(encoded.subarray(0, escapedLength)), version };
}

export function unescapeKey(escaped: Uint8Array): Uint8Array {
  if (!escaped.includes(0)) return Uint8Array.from(escaped);
  const out: number[] = [];
  for (let i = 0; i < escaped.length; i++) {
    out.push(escaped[i]!);
    if (escaped[i] === 0) i++; // skip the 0xFF that follows an escaped zero
  }
  return Uint8Array.from(out);
}

/** The smallest byte string greater than every string starting with `prefix` (undefined: no bound). */
export function prefixEnd(prefix: Uint8Array): Uint8Array | undefined {
  const end = Uint8Array.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++;
      return end.slice(0, i + 1);
    }
  }
  return undefined;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return compareBytes(a, b) === 0;
}

export function uint64Bytes(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value));
  return out;
}
