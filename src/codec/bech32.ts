import { bech32 } from "bech32";
import { decodeLowercaseBech32 } from "./bech32Lowercase.js";

/**
 * bech32 addresses. Decoding names the field and says exactly what is wrong
 * (prefix, checksum, characters), so a bad parameter gets a clear 400.
 */
export function decodeBech32Address(value: string, expectedPrefix: string, field: string): Uint8Array {
  if (value === "") throw new Error(`${field} cannot be empty`);
  const lowercase = decodeLowercaseBech32(value, expectedPrefix);
  if (lowercase && lowercase.length > 0 && lowercase.length <= 255) return lowercase;
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(value, 1023);
  } catch (err) {
    throw new Error(`invalid ${field} "${value}": decoding bech32 failed: ${(err as Error).message}`);
  }
  if (decoded.prefix !== expectedPrefix) {
    throw new Error(`invalid ${field} "${value}": invalid Bech32 prefix; expected ${expectedPrefix}, got ${decoded.prefix}`);
  }
  const bytes = Uint8Array.from(bech32.fromWords(decoded.words));
  if (bytes.length === 0 || bytes.length > 255) throw new Error(`invalid ${field} "${value}": address length ${bytes.length} is out of range`);
  return bytes;
}

export function encodeBech32Address(prefix: string, bytes: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(bytes), 1023);
}
