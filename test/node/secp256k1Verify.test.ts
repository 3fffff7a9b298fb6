import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { verifySecp256k1 } from "../../src/node/tx/secp256k1Verify.js";

const N = secp256k1.Point.CURVE().n;

function toHighS(signature: Uint8Array): Uint8Array {
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString("hex")}`);
  const high = Buffer.from((N - s).toString(16).padStart(64, "0"), "hex");
  return Uint8Array.from([...signature.subarray(0, 32), ...high]);
}

describe("secp256k1 signature check (OpenSSL) agrees with the JavaScript one", () => {
  it("accepts low-S signatures and refuses tampered messages, other keys, high-S and points off the curve", () => {
    for (let i = 0; i < 40; i++) {
      const secret = secp256k1.utils.randomSecretKey();
      const publicKey = secp256k1.getPublicKey(secret, true);
      const message = randomBytes(1 + i * 7);
      const signature = secp256k1.sign(sha256(message), secret, { prehash: false, lowS: true, format: "compact" });
      const noble = (sig: Uint8Array, msg: Uint8Array, key: Uint8Array) => {
        try {
          return secp256k1.verify(sig, sha256(msg), key, { prehash: false, lowS: true, format: "compact" });
        } catch {
          return false;
        }
      };
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
      ];
      for (const [sig, msg, key] of cases) expect(verifySecp256k1(sig, msg, key)).to.equal(noble(sig, msg, key));
      expect(verifySecp256k1(signature, message, publicKey)).to.equal(true);
      expect(verifySecp256k1(toHighS(signature), message, publicKey)).to.equal(false);
    }
  });
});
