import { expect } from "chai";
import { VerifiedSignatures } from "../../src/node/tx/verifiedSignatures.js";

describe("VerifiedSignatures (CheckTx's verifies reused by DeliverTx)", () => {
  const key = Uint8Array.of(2, ...Array<number>(32).fill(7));
  const message = new TextEncoder().encode("sign bytes");
  const signature = Uint8Array.from(Array<number>(64).fill(9));

  it("verifies a signature once; the same key, message and signature again is known valid", () => {
    const cache = new VerifiedSignatures();
    let verifies = 0;
    const verify = () => (verifies++, true);
    expect(cache.check(key, message, signature, verify)).to.equal(true);
    expect(cache.check(key, message, signature, verify)).to.equal(true);
    expect(verifies).to.equal(1);
  });

  it("keeps no failure, and another message, key or signature is verified in full", () => {
    const cache = new VerifiedSignatures();
    let verifies = 0;
    expect(cache.check(key, message, signature, () => (verifies++, false))).to.equal(false);
    expect(cache.check(key, message, signature, () => (verifies++, false))).to.equal(false);
    cache.check(key, message, signature, () => (verifies++, true));
    const other = (bytes: Uint8Array) => Uint8Array.from(bytes, (b, i) => (i === 0 ? b ^ 1 : b));
    expect(cache.check(key, other(message), signature, () => (verifies++, false))).to.equal(false);
    expect(cache.check(other(key), message, signature, () => (verifies++, false))).to.equal(false);
    expect(cache.check(key, message, other(signature), () => (verifies++, false))).to.equal(false);
    expect(verifies).to.equal(6);
  });
});
