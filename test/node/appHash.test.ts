import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { nextAppHash, nextAppHashInSteps } from "../../src/node/chain/blockStore.js";
import { PackedWrites } from "../../src/node/store/packedWrites.js";

/** The app hash as defined: SHA-256 of the previous hash, then each write's key and value, each after its length (uint64, big-endian). */
function reference(previous: string, writes: Array<{ key: Uint8Array; value: Uint8Array | undefined }>): string {
  const length = (n: number) => {
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, BigInt(n));
    return out;
  };
  const hasher = sha256.create().update(Buffer.from(previous, "hex"));
  for (const { key, value } of writes)
    hasher
      .update(length(key.length))
      .update(key)
      .update(length(value?.length ?? 0))
      .update(value ?? new Uint8Array());
  return Buffer.from(hasher.digest()).toString("hex").toUpperCase();
}

describe("app hash of a block's writes", () => {
  it("chains the previous hash with each write's key and value (deletions as empty values)", () => {
    const writes = Array.from({ length: 500 }, (_, i) => ({
      key: Uint8Array.from({ length: 1 + (i % 40) }, (_, j) => (i * 31 + j) % 256),
      value: i % 7 === 0 ? undefined : Uint8Array.from({ length: i % 300 }, (_, j) => (i + j * 17) % 256),
    }));
    expect(nextAppHash("", writes)).to.equal(reference("", writes));
    expect(nextAppHash("ABCDEF0123", writes)).to.equal(reference("ABCDEF0123", writes));
    expect(nextAppHash("ABCDEF0123", [])).to.equal(reference("ABCDEF0123", []));
  });

  it("hashes a value larger than the hasher's buffer, and the same in steps as at once", async () => {
    const writes = [
      { key: Uint8Array.of(1), value: new Uint8Array(70_000).fill(7) },
      { key: Uint8Array.of(2), value: undefined },
      ...Array.from({ length: 1000 }, (_, i) => ({ key: Uint8Array.of(3, i >> 8, i & 0xff), value: new Uint8Array(i % 200).fill(i & 0xff) })),
    ];
    expect(nextAppHash("AB", writes)).to.equal(reference("AB", writes));
    let hashed = 0;
    expect(await nextAppHashInSteps("AB", PackedWrites.of(writes), (n) => (hashed += n), 64)).to.equal(reference("AB", writes));
    expect(hashed).to.equal(writes.length);
  });
});
