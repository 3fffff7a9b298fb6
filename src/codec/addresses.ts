import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBech32Address } from "./bech32.js";

/** Module account address bytes: the first 20 bytes of SHA-256(module name), as the real auth module derives them. */
export function moduleAddressBytes(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(name)).subarray(0, 20);
}

export function moduleAddress(prefix: string, name: string): string {
  return encodeBech32Address(prefix, moduleAddressBytes(name));
}

/** The bech32 prefixes of a chain whose account prefix is `prefix` ("hub" → hubvaloper, hubvalcons, ...). */
export function bech32Prefixes(prefix: string) {
  return {
    account: prefix,
    accountPub: `${prefix}pub`,
    validatorOperator: `${prefix}valoper`,
    validatorOperatorPub: `${prefix}valoperpub`,
    consensus: `${prefix}valcons`,
    consensusPub: `${prefix}valconspub`,
  };
}

/** Consensus address bytes of an ed25519 key: the first 20 bytes of SHA-256(public key). */
export function consensusAddressBytes(ed25519PublicKey: Uint8Array): Uint8Array {
  return sha256(ed25519PublicKey).subarray(0, 20);
}
