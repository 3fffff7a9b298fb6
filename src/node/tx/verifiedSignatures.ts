import crypto from "node:crypto";

/** Signatures remembered as verified; the oldest are forgotten beyond this many. */
const MAX_VERIFIED = 20_000;

/**
 * Signatures already found valid, as the real node's signature cache: every
 * transaction is verified in CheckTx and again in DeliverTx, and the second
 * verify would repeat the first exactly (a signature's validity depends only
 * on key, message and signature, which the entry's digest binds). Only
 * successes are kept, so a forged signature is always checked in full.
 */
export class VerifiedSignatures {
  private readonly seen = new Set<string>();

  /** Whether this exact key, message and signature verified before; else `verify` decides (and a success is kept). */
  check(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array, verify: () => boolean): boolean {
    const id = digest(publicKey, message, signature);
    if (this.seen.has(id)) return true;
    if (!verify()) return false;
    if (this.seen.size >= MAX_VERIFIED) this.seen.delete(this.seen.values().next().value!);
    this.seen.add(id);
    return true;
  }
}

/** One digest of the three, each length-prefixed so that no two different triples share the bytes hashed. */
function digest(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): string {
  const hash = crypto.createHash("sha256");
  for (const part of [publicKey, signature, message]) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(part.length);
    hash.update(length).update(part);
  }
  return hash.digest("base64");
}
