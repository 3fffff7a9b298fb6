import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { libsecp256k1Verify, opensslVerify, verifySecp256k1 } from "../../src/node/tx/secp256k1Verify.js";

const N = secp256k1.Point.CURVE().n;

function toHighS(signature: Uint8Array): Uint8Array {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString("hex")}`);
  const high = Buffer.from((N - s).toString(16).padStart(64, "0"), "hex");
  return Uint8Array.from([...signature.subarray(0, 32), ...high]);
}

function noble(sig: Uint8Array, msg: Uint8Array, key: Uint8Array): boolean {
  try {
    return secp256k1.verify(sig, sha256(msg), key, { prehash: false, lowS: true, format: "compact" });
  } catch {
    return false;
  }
}

describe("secp256k1 signature check (libsecp256k1, else OpenSSL) agrees with the JavaScript one", () => {
  it("accepts low-S signatures and refuses tampered messages, other keys, high-S and points off the curve", () => {
    for (let i = 0; i < 40; i++) {
      const secret = secp256k1.utils.randomSecretKey();
      const publicKey = secp256k1.getPublicKey(secret, true);
      const message = randomBytes(1 + i * 7);
      const signature = secp256k1.sign(sha256(message), secret, { prehash: false, lowS: true, format: "compact" });
      const other = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true);
      const offCurve = Uint8Array.from([0x02, ...randomBytes(32)]);
      const cases: Array<[Uint8Array, Uint8Array, Uint8Array]> = [
        [signature, message, publicKey],
        [signature, Uint8Array.from([...message, 0]), publicKey],
        [signature, message, other],
        [toHighS(signature), message, publicKey],
        [signature, message, offCurve],
        [signature.subarray(0, 63), message, publicKey],
        [secp256k1.getPublicKey(secret, false).subarray(0, 64), message, publicKey],
        [Uint8Array.from([...Array<number>(32).fill(0xff), ...signature.subarray(32)]), message, publicKey], // r not below the order
      ];
      for (const [sig, msg, key] of cases) expect(verifySecp256k1(sig, msg, key)).to.equal(noble(sig, msg, key));
      expect(verifySecp256k1(signature, message, publicKey)).to.equal(true);
      expect(verifySecp256k1(toHighS(signature), message, publicKey)).to.equal(false);
    }
  });
});

describe("the two secp256k1 verifiers", () => {
  it("libsecp256k1's addon loads on this platform (else the node falls back to OpenSSL's slower verify)", () => {
    expect(libsecp256k1Verify()).to.be.a("function");
  });

  it("each agrees with the JavaScript verify on low-S signatures, tampered messages, other keys and points off the curve", () => {
    for (const verify of [libsecp256k1Verify()!, opensslVerify]) {
      for (let i = 0; i < 20; i++) {
        const secret = secp256k1.utils.randomSecretKey();
        const publicKey = secp256k1.getPublicKey(secret, true);
        const message = randomBytes(1 + i * 11);
        const signature = secp256k1.sign(sha256(message), secret, { prehash: false, lowS: true, format: "compact" });
        const cases: Array<[Uint8Array, Uint8Array, Uint8Array]> = [
          [signature, message, publicKey],
          [signature, Uint8Array.from([...message, 0]), publicKey],
          [signature, message, secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true)],
          [signature, message, Uint8Array.from([0x02, ...randomBytes(32)])],
          [Uint8Array.from([...Array<number>(32).fill(0xff), ...signature.subarray(32)]), message, publicKey],
        ];
        for (const [sig, msg, key] of cases) expect(verify(sig, msg, key)).to.equal(noble(sig, msg, key));
        expect(verify(signature, message, publicKey)).to.equal(true);
      }
    }
  });
});
