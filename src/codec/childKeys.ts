import crypto from "node:crypto";
import { createRequire } from "node:module";
import type { HDKey } from "@scure/bip32";

export interface ChildKey {
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

interface Libsecp256k1 {
  privateKeyTweakAdd(privateKey: Uint8Array, tweak: Uint8Array): Uint8Array;
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
}

/**
 * The non-hardened child `index` of `parent` (BIP-32 CKDpriv): I = HMAC-SHA512(chain code,
 * parent public key ‖ index), child private key = parent private key + I[0..32] mod n.
 * The arithmetic is libsecp256k1's, through the prebuilt addon of the secp256k1 package:
 * @scure/bip32 computes each child's public key in JavaScript, which dominates an init of
 * many accounts. Where the addon does not load, or for the rare
 * index BIP-32 makes skip (I[0..32] not below n), @scure/bip32 derives it.
 */
export function nonHardenedChild(parent: HDKey, index: number): ChildKey {
  const native = libsecp256k1();
  if (!native || !parent.privateKey || !parent.publicKey || !parent.chainCode) return scureChild(parent, index);
  const data = Buffer.alloc(37);
  data.set(parent.publicKey, 0);
  data.writeUInt32BE(index, 33);
  const tweak = crypto.createHmac("sha512", parent.chainCode).update(data).digest().subarray(0, 32);
  try {
    const privateKey = native.privateKeyTweakAdd(Uint8Array.from(parent.privateKey), tweak);
    return { privateKey, publicKey: native.publicKeyCreate(privateKey, true) };
  } catch {
    return scureChild(parent, index);
  }
}

function scureChild(parent: HDKey, index: number): ChildKey {
  const child = parent.deriveChild(index);
  return { publicKey: child.publicKey!, privateKey: child.privateKey! };
}

/** null until the first child tried to load the addon. */
let addon: Libsecp256k1 | undefined | null = null;

function libsecp256k1(): Libsecp256k1 | undefined {
  if (addon === null) {
    try {
      addon = createRequire(import.meta.url)("secp256k1/bindings") as Libsecp256k1;
    } catch {
      addon = undefined;
    }
  }
  return addon;
}
