import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBech32Address } from "./bech32.js";

/** Module account address bytes: the first 20 bytes of SHA-256(module name), as the real auth module derives them. */
export function moduleAddressBytes(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(name)).subarray(0, 20);
}

const moduleAddresses = new Map<string, string>();
const MAX_MODULE_ADDRESSES = 1_000;

/** A module account's bech32 address; remembered (asked for in every transaction's fee deduction), bounded (coinswap names one per pool). */
export function moduleAddress(prefix: string, name: string): string {
  const id = `${prefix}\n${name}`;
  let address = moduleAddresses.get(id);
  if (address === undefined) {
    address = encodeBech32Address(prefix, moduleAddressBytes(name));
    if (moduleAddresses.size >= MAX_MODULE_ADDRESSES) moduleAddresses.clear();
    moduleAddresses.set(id, address);
  }
  return address;
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
