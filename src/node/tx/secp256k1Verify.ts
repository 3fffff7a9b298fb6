import crypto from "node:crypto";
import { createRequire } from "node:module";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { VerifiedSignatures } from "./verifiedSignatures.js";

/** DER prefix of a SubjectPublicKeyInfo holding a compressed secp256k1 point (33 bytes follow). */
const SPKI_PREFIX = Buffer.from("3036301006072a8648ce3d020106052b8104000a032200", "hex");
const HALF_ORDER = secp256k1.Point.CURVE().n >> 1n;

/** One verify of a 64-byte signature (r‖s) of SHA-256(message) by a 33-byte compressed key. */
export type Secp256k1Verifier = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;

/**
 * Whether `signature` (64 bytes, r‖s) is a secp256k1 signature of SHA-256(`message`)
 * by the compressed public key `publicKey`, with s in the lower half of the order
 * (the real ante handler refuses malleable high-S signatures). Verified by
 * libsecp256k1 (the library of the real node) when its addon loads, else by
 * OpenSSL through node:crypto. Every transaction is verified in CheckTx and again
 * in DeliverTx; the second time finds it among the signatures already verified.
 */
export function verifySecp256k1(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  return verified.check(publicKey, message, signature, () => verifyNow(signature, message, publicKey));
}

const verified = new VerifiedSignatures();

function verifyNow(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  if (publicKey.length !== 33) return nobleVerify(signature, message, publicKey);
  if (!lowS(signature)) return false;
  return (libsecp256k1Verify() ?? opensslVerify)(signature, message, publicKey);
}

function lowS(signature: Uint8Array): boolean {
  return BigInt(`0x${Buffer.from(signature.subarray(32)).toString("hex")}`) <= HALF_ORDER;
}

/** OpenSSL's verify (node:crypto): the fallback where the libsecp256k1 addon does not load. */
export const opensslVerify: Secp256k1Verifier = (signature, message, publicKey) => {
  try {
    return crypto.verify("sha256", message, { key: keyObject(publicKey), dsaEncoding: "ieee-p1363" }, signature);
  } catch {
    return false; // not a point of the curve
  }
};

/**
 * libsecp256k1's verify, through the prebuilt N-API addon of the secp256k1 package (loaded
 * directly: the package's own entry would fall back to a slow JavaScript verify); a sixth of
 * OpenSSL's time, whose generic curve code made the verify a fifth of the broadcast load.
 * Undefined when the addon does not load on this platform. Loaded at the first verify: a node
 * that verifies nothing (a read-only REST server) does not map it.
 */
export function libsecp256k1Verify(): Secp256k1Verifier | undefined {
  if (libsecp256k1 === null) libsecp256k1 = loadLibsecp256k1();
  return libsecp256k1;
}

/** null until the first verify tried to load the addon. */
let libsecp256k1: Secp256k1Verifier | undefined | null = null;

function loadLibsecp256k1(): Secp256k1Verifier | undefined {
  let addon: { ecdsaVerify(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean };
  try {
    addon = createRequire(import.meta.url)("secp256k1/bindings") as typeof addon;
  } catch {
    return undefined;
  }
  return (signature, message, publicKey) => {
    try {
      return addon.ecdsaVerify(signature, crypto.createHash("sha256").update(message).digest(), publicKey);
    } catch {
      return false; // r or s not below the order, or not a point of the curve
    }
  };
}

/** Parsed public keys of recent signers (an account signs again and again); bounded. */
const keys = new Map<string, crypto.KeyObject>();
const MAX_KEYS = 10_000;

function keyObject(publicKey: Uint8Array): crypto.KeyObject {
  const id = Buffer.from(publicKey).toString("hex");
  let key = keys.get(id);
  if (!key) {
    key = crypto.createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: "der", type: "spki" });
    if (keys.size >= MAX_KEYS) keys.clear();
    keys.set(id, key);
  }
  return key;
}

function nobleVerify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return secp256k1.verify(signature, sha256(message), publicKey, { prehash: false, lowS: true, format: "compact" });
  } catch {
    return false;
  }
}
