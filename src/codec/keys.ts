import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { HDKey } from "@scure/bip32";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { encodeBech32Address } from "./bech32.js";
import { nonHardenedChild } from "./childKeys.js";

/** The HD path of the accounts' parent key, as the real wallets derive it (coin type 118, account 0, external chain). */
const ACCOUNTS_PARENT_PATH = "m/44'/118'/0'/0";

/** The HD path of account `index`. */
export const hdPath = (index: number) => `${ACCOUNTS_PARENT_PATH}/${index}`;

export interface Secp256k1Account {
  index: number;
  address: string;
  /** 33-byte compressed public key. */
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

export function newMnemonic(): string {
  return generateMnemonic(wordlist, 256);
}

/**
 * Derives accounts first..first+count-1 of a mnemonic: address = bech32(prefix, RIPEMD160(SHA256(pubkey))).
 * The parent key (four levels, three hardened) is derived once and each account is one
 * non-hardened child of it (childKeys.ts): the same keys as the whole path from the master.
 */
export function deriveAccounts(mnemonic: string, prefix: string, count: number, first = 0): Secp256k1Account[] {
  if (!validateMnemonic(mnemonic, wordlist)) throw new Error("invalid mnemonic");
  const parent = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(ACCOUNTS_PARENT_PATH);
  return Array.from({ length: count }, (_, i) => {
    const index = first + i;
    const child = nonHardenedChild(parent, index);
    return { index, address: accountAddress(prefix, child.publicKey), publicKey: child.publicKey, privateKey: child.privateKey };
  });
}

function accountAddress(prefix: string, compressedPublicKey: Uint8Array): string {
  return encodeBech32Address(prefix, ripemd160(sha256(compressedPublicKey)));
}

export interface Ed25519Key {
  /** Uppercase hex of the first 20 bytes of SHA-256(pubkey): the consensus address. */
  address: string;
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

export function newEd25519Key(): Ed25519Key {
  const privateKey = ed25519.utils.randomSecretKey();
  const publicKey = ed25519.getPublicKey(privateKey);
  return { address: Buffer.from(sha256(publicKey).subarray(0, 20)).toString("hex").toUpperCase(), publicKey, privateKey };
}
