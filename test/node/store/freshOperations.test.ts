import { expect } from "chai";
import path from "node:path";
import { SlabPiece } from "../../../src/node/store/byteSlab.js";
import { encodeVersioned, uint64Bytes } from "../../../src/node/store/keyEncoding.js";
import { VersionedStore } from "../../../src/node/store/versionedStore.js";
import { tempDir } from "../../helpers/tempDir.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("a first version's operations written from slabs", () => {
  it("are the bytes operations() writes: versioned keys, their values, the fast index", async () => {
    const store = await VersionedStore.open(path.join(tempDir("fresh-ops"), "db"));
    try {
      const batch = store.begin();
      batch.set(Uint8Array.of(1, 2, 3), Uint8Array.of(9, 9));
      batch.set(Uint8Array.of(0, 5, 0), Uint8Array.of(0)); // zero bytes are escaped in the versioned key
      batch.set(Uint8Array.of(7), new Uint8Array(0));
      batch.delete(Uint8Array.of(8, 0));
      for (let i = 0; i < 3000; i++) batch.set(Uint8Array.of(2, i >> 8, i & 0xff), new Uint8Array(700).fill(i & 0xff)); // more than one slab
      batch.putMeta(Uint8Array.of(4), Uint8Array.of(4));
      // a fresh batch's operations() adds a fast-index delete for a deleted key, which a first version does not need
      const expected = (await batch.operations()).filter((op) => op.type === "put");
      const chunks = [...batch.freshOperations(1000)];
      expect(chunks.length).to.equal(4);
      const written = chunks.flat();
      expect(written.map((op) => [op.type, hex(op.key), op.type === "put" ? hex(op.value) : ""])).to.deep.equal(
        expected.map((op) => [op.type, hex(op.key), op.type === "put" ? hex(op.value) : ""]),
      );
    } finally {
      await store.close();
    }
  });

  it("writes versions as the 64-bit big-endian encoding does, plain and inverted", () => {
    for (const version of [0, 1, 255, 256, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
      expect(hex(new SlabPiece(new Uint8Array(8)).uint64(version).bytes)).to.equal(hex(uint64Bytes(version)));
      const inverted = new SlabPiece(new Uint8Array(8)).uint64(version, true).bytes;
      expect(hex(inverted)).to.equal(hex(encodeVersioned(new Uint8Array(0), version).subarray(2)));
    }
  });
});
