/**
 * A fast path of bech32 decoding (BIP-173) for the common case: an all-lowercase address of
 * a known prefix. A genesis import decodes millions of addresses, and the bech32 package
 * lowercases and uppercases each string and builds an array of words and one of bytes for
 * each. Anything this path does not accept — another prefix, uppercase, a bad
 * character, checksum or padding — gives undefined: the caller then decodes with the
 * bech32 package, whose answer (and error message) stands.
 */
const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const WORD_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < CHARSET.length; i++) WORD_OF[CHARSET.charCodeAt(i)] = i;
/** The bech32 package's limit as this project calls it (decode(value, 1023)). */
const MAX_LENGTH = 1023;
const CHECKSUM_WORDS = 6;
const SEPARATOR = 0x31; // "1"

function polymodStep(pre: number): number {
  const b = pre >> 25;
  return (
    ((pre & 0x1ffffff) << 5) ^
    (-((b >> 0) & 1) & 0x3b6a57b2) ^
    (-((b >> 1) & 1) & 0x26508e6d) ^
    (-((b >> 2) & 1) & 0x1ea119fa) ^
    (-((b >> 3) & 1) & 0x3d4233dd) ^
    (-((b >> 4) & 1) & 0x2a1462b3)
  );
}

/** The checksum state after a prefix, by prefix (a handful: the chain's). */
const prefixStates = new Map<string, number | undefined>();

function prefixState(prefix: string): number | undefined {
  if (prefixStates.has(prefix)) return prefixStates.get(prefix);
  let chk: number | undefined = 1;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    // printable ASCII, lowercase only (the package lowercases what it decodes)
    if (c < 33 || c > 126 || (c >= 0x41 && c <= 0x5a)) chk = undefined;
    if (chk !== undefined) chk = polymodStep(chk) ^ (c >> 5);
  }
  if (chk !== undefined) {
    chk = polymodStep(chk);
    for (let i = 0; i < prefix.length; i++) chk = polymodStep(chk) ^ (prefix.charCodeAt(i) & 0x1f);
  }
  if (prefixStates.size < 64) prefixStates.set(prefix, chk);
  return chk;
}

/** The bytes of `value` when it is a valid lowercase bech32 string of `prefix`; undefined otherwise (see above). */
export function decodeLowercaseBech32(value: string, prefix: string): Uint8Array | undefined {
  const n = value.length;
  const dataStart = prefix.length + 1;
  if (prefix === "" || n > MAX_LENGTH || n < 8 || n - dataStart < CHECKSUM_WORDS || value.charCodeAt(prefix.length) !== SEPARATOR || !value.startsWith(prefix))
    return undefined;
  let chk = prefixState(prefix);
  if (chk === undefined) return undefined;
  const bytes = new Uint8Array(Math.floor(((n - dataStart - CHECKSUM_WORDS) * 5) / 8));
  let acc = 0;
  let bits = 0;
  let out = 0;
  for (let i = dataStart; i < n; i++) {
    const c = value.charCodeAt(i);
    const word = c < 128 ? WORD_OF[c]! : -1;
    if (word < 0) return undefined; // a character outside the charset (a "1" included: the separator is the last "1")
    chk = polymodStep(chk) ^ word;
    if (i >= n - CHECKSUM_WORDS) continue;
    acc = ((acc << 5) | word) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[out++] = (acc >> bits) & 0xff;
    }
  }
  // the checksum constant of bech32 is 1; at most 4 bits of zero padding
  if (chk !== 1 || bits >= 5 || (acc << (8 - bits)) & 0xff) return undefined;
  return bytes;
}
