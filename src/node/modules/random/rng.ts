import { sha256 } from "@noble/hashes/sha2.js";

const SCALE = 10n ** 20n;
const bigOf = (bytes: Uint8Array) => (bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString("hex")}`));

/** big.Int.Bytes(): minimal big-endian bytes (none for zero). */
function minimalBytes(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array();
  const hex = value.toString(16);
  return Uint8Array.from(Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex"));
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/** A random of the random module: its stored value (20 decimals) and its event text (the reduced fraction). */
export interface RandomNumber {
  /** big.Rat.FloatString(20) */
  value: string;
  /** big.Rat.String() */
  fraction: string;
}

/**
 * irismod v1.3.1 types/rng.go: from the last block's hash, the block time (Unix seconds), the
 * consumer's address bytes and, for an oracle request, the provider's 32-byte seed:
 * sum = BT + SHA256(hash)/BT + SHA256(consumer)/BT (+ SHA256(seed)/BT); the number is
 * (SHA256(minimal bytes of sum) mod 10^20) / 10^20.
 */
export function makeRandom(lastBlockHash: Uint8Array, blockTimeSeconds: bigint, consumer: Uint8Array, seed?: Uint8Array): RandomNumber {
  let sum = blockTimeSeconds + bigOf(sha256(lastBlockHash)) / blockTimeSeconds + bigOf(sha256(consumer)) / blockTimeSeconds;
  if (seed) sum += bigOf(sha256(seed)) / blockTimeSeconds;
  const numerator = bigOf(sha256(minimalBytes(sum))) % SCALE;
  const divisor = gcd(numerator, SCALE) || SCALE;
  return {
    value: `0.${numerator.toString().padStart(20, "0")}`,
    fraction: numerator === 0n ? "0/1" : `${numerator / divisor}/${SCALE / divisor}`,
  };
}
