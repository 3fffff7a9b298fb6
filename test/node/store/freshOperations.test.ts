import { expect } from "chai";
import path from "node:path";
import { SlabPiece } from "../../../src/node/store/byteSlab.js";
import { encodeVersioned, uint64Bytes } from "../../../src/node/store/keyEncoding.js";
import { VersionedStore, type BatchOp, type StateBatch } from "../../../src/node/store/versionedStore.js";
import { PackedWrites } from "../../../src/node/store/packedWrites.js";
import { tempDir } from "../../helpers/tempDir.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
type Op = { type: string; key: Uint8Array; value?: Uint8Array };
/** The operations as [type, key, value] in hex, in key order (freshOperations writes the versioned entries first, then the fast index). */
const inKeyOrder = (ops: Op[]) =>
  ops.map((op) => [op.type, hex(op.key), op.value ? hex(op.value) : ""]).sort(([, a], [, b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));

/** A first version's entries (StateBatch.freshEntries) as operations, a chunk at a time. */
function* freshOperations(batch: StateBatch, chunk: number, reuseBuffers = false): Generator<BatchOp[]> {
  let ops: BatchOp[] = [];
  for (const _entries of batch.freshEntries(chunk, (key, value) => ops.push({ type: "put", key, value }), reuseBuffers)) {
    yield ops;
    ops = [];
  }
}

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
      const chunks = [...freshOperations(batch, 2000)];
      expect(chunks.length).to.equal(4);
      const written = chunks.flat();
      expect(inKeyOrder(written)).to.deep.equal(inKeyOrder(expected));
      // all versioned entries ('s'), then the fast index ('f'), then the metadata ('m')
      expect(written.map((op) => String.fromCharCode(op.key[0]!)).join("")).to.match(/^s+f+m+$/);
    } finally {
      await store.close();
    }
  });

  it("writes sorted writes given as they are (setSortedFresh) as the same bytes as writes set one by one", async () => {
    const store = await VersionedStore.open(path.join(tempDir("fresh-sorted"), "db"));
    try {
      const writes: Array<{ key: Uint8Array; value: Uint8Array | undefined }> = Array.from({ length: 2500 }, (_, i) => ({
        key: Uint8Array.of(3, i >> 8, 0, i & 0xff),
        value: new Uint8Array(500).fill(i & 0xff),
      }));
      writes.push({ key: Uint8Array.of(9, 0), value: undefined });
      const one = store.begin();
      for (const { key, value } of writes) {
        if (value) one.set(key, value);
        else one.delete(key);
      }
      const sorted = store.begin();
      sorted.setSortedFresh(PackedWrites.of(writes));
      const ops = (batch: typeof one) => [...freshOperations(batch, 700)].flat();
      expect(inKeyOrder(ops(sorted))).to.deep.equal(inKeyOrder(ops(one)));
      // the same bytes when each chunk reuses the buffers of the one before, read as it comes
      const reused: Op[] = [];
      for (const chunk of freshOperations(sorted, 700, true))
        for (const op of chunk) reused.push({ type: op.type, key: op.key.slice(), value: op.type === "put" ? op.value.slice() : undefined });
      expect(inKeyOrder(reused)).to.deep.equal(inKeyOrder(ops(one)));
      const keys = ops(sorted).map((op) => hex(op.key));
      const versioned = keys.filter((k) => k.startsWith(keys[0]!.slice(0, 2)));
      expect(versioned).to.deep.equal([...versioned].sort());
    } finally {
      await store.close();
    }
  });

  it("commits a first version in chunks whose buffers are reused while the chunk before is written: every value reads back", async () => {
    const dir = path.join(tempDir("fresh-commit"), "db");
    const writes = Array.from({ length: 3000 }, (_, i) => ({ key: Uint8Array.of(5, i >> 8, i & 0xff), value: new Uint8Array(600).fill(i % 251) }));
    let store = await VersionedStore.open(dir);
    try {
      const batch = store.begin();
      batch.setSortedFresh(PackedWrites.of(writes));
      let written = 0;
      await store.commitFirst(batch, (n) => (written += n), 500);
      expect(written).to.equal(2 * writes.length);
      await store.close();
      store = await VersionedStore.open(dir); // read from LevelDB's files, not what the process kept
      for (const version of [1, undefined]) {
        const reader = store.reader(version);
        for (const { key, value } of writes) expect(hex((await reader.get(key))!), hex(key)).to.equal(hex(value));
      }
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
