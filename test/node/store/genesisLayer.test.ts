import { expect } from "chai";
import { CacheLayer, type FullKeyReader } from "../../../src/node/store/cacheLayer.js";
import { GenesisLayer } from "../../../src/node/store/genesisLayer.js";
import { ByteArena, DELETED_LENGTH, type PackedWrites } from "../../../src/node/store/packedWrites.js";

const hex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString("hex") : "-");

/** A reader of fixed entries (what the store holds below the layer). */
function readerOf(entries: Array<[Uint8Array, Uint8Array]>): FullKeyReader {
  const sorted = [...entries].sort(([a], [b]) => Buffer.compare(a, b));
  return {
    get: async (key) => sorted.find(([k]) => Buffer.compare(k, key) === 0)?.[1],
    async *iterate(prefix, start) {
      for (const [k, v] of sorted) {
        if (Buffer.compare(k.subarray(0, prefix.length), prefix) !== 0) continue;
        if (Buffer.compare(k, start ?? prefix) < 0) continue;
        yield [k, v];
      }
    },
  };
}

async function all(iterator: AsyncGenerator<[Uint8Array, Uint8Array]>): Promise<string[]> {
  const out: string[] = [];
  for await (const [k, v] of iterator) out.push(`${hex(k)}=${hex(v)}`);
  return out;
}

/** The packed writes as "key=value" (value "-" when deleted), in their order. */
function listed(writes: PackedWrites): string[] {
  return Array.from({ length: writes.length }, (_, i) => {
    const key = writes.arena.view(writes.keyAt(i), writes.keyLength(i));
    const length = writes.valueLength(i);
    return `${hex(key)}=${length === DELETED_LENGTH ? "-" : hex(writes.arena.view(writes.valueAt(i), length))}`;
  });
}

describe("the genesis import's layer of writes", () => {
  // keys with zero bytes, bytes ≥ 0x80 (latin1 strings must sort as bytes), prefixes of each other
  const below: Array<[Uint8Array, Uint8Array]> = [
    [Uint8Array.of(1, 0), Uint8Array.of(10)],
    [Uint8Array.of(1, 0x90), Uint8Array.of(11)],
    [Uint8Array.of(2), Uint8Array.of(12)],
  ];
  const writes: Array<[Uint8Array, Uint8Array | undefined]> = [
    [Uint8Array.of(1, 0xff, 3), Uint8Array.of(1)],
    [Uint8Array.of(1), Uint8Array.of(2)],
    [Uint8Array.of(1, 0x90), Uint8Array.of(3, 3)], // replaces a value below
    [Uint8Array.of(1, 0), undefined], // deletes a value below
    [Uint8Array.of(1, 0x7f), new Uint8Array(0)],
    [Uint8Array.of(1, 0xff, 3), Uint8Array.of(4, 4, 4)], // written twice: the last value
    [Uint8Array.of(3, 0, 0), Uint8Array.of(5)],
  ];

  function layers() {
    const cache = new CacheLayer(readerOf(below));
    let counted = 0;
    const genesis = new GenesisLayer(readerOf(below), () => counted++);
    for (const [key, value] of writes) {
      for (const layer of [cache, genesis]) {
        if (value) layer.set(key, value);
        else layer.delete(key);
      }
    }
    return { cache, genesis, counted: () => counted };
  }

  it("reads and iterates as a CacheLayer over the same state does", async () => {
    const { cache, genesis, counted } = layers();
    expect(counted()).to.equal(writes.length);
    for (const key of [...below.map(([k]) => k), ...writes.map(([k]) => k), Uint8Array.of(9)]) {
      expect(hex(await genesis.get(key)), hex(key)).to.equal(hex(await cache.get(key)));
    }
    for (const [prefix, start] of [
      [new Uint8Array(0)],
      [Uint8Array.of(1)],
      [Uint8Array.of(1), Uint8Array.of(1, 0x80)],
      [Uint8Array.of(3)],
      [Uint8Array.of(4)],
    ]) {
      expect(await all(genesis.iterate(prefix!, start)), hex(prefix)).to.deep.equal(await all(cache.iterate(prefix!, start)));
    }
  });

  it("gives copies: a read value changed by its reader does not change the write", async () => {
    const { genesis } = layers();
    const value = (await genesis.get(Uint8Array.of(1)))!;
    value[0] = 99;
    expect(hex(await genesis.get(Uint8Array.of(1)))).to.equal("02");
  });

  it("packs its writes in key order, deletions included, as CacheLayer.sortedWrites orders them", async () => {
    const { cache, genesis } = layers();
    let counted = 0;
    const packed = await genesis.sortedWrites((n) => (counted += n));
    expect(listed(packed)).to.deep.equal(cache.sortedWrites().map((w) => `${hex(w.key)}=${hex(w.value)}`));
    expect(counted).to.be.greaterThan(0);
  });

  it("keeps a value larger than an arena buffer in a buffer of its own", () => {
    const arena = new ByteArena();
    const small = arena.append(Uint8Array.of(7));
    const large = new Uint8Array((16 << 20) + 5).fill(3);
    const at = arena.append(large);
    const after = arena.append(Uint8Array.of(8, 9));
    expect(hex(arena.view(small, 1))).to.equal("07");
    const view = arena.view(at, large.length);
    expect([view.length, view[0], view[large.length - 1]]).to.deep.equal([large.length, 3, 3]);
    expect(hex(arena.view(after, 2))).to.equal("0809");
  });
});
