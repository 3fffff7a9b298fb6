import { compareBytes } from "./keyEncoding.js";

/** Read access by full key (the versioned store at one height, or another cache layer). */
export interface FullKeyReader {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]>;
  /**
   * What iterate() gives, or its first `max` entries, when they are in memory, with keys
   * relative to `prefix` (a cache layer has none: its writes are merged as it iterates).
   */
  keptUnder?(prefix: Uint8Array, start?: Uint8Array, max?: number): Array<[Uint8Array, Uint8Array]> | undefined;
}

/** A layer that takes writes: a CacheLayer, or the genesis import's GenesisLayer. */
export interface WritableLayer extends FullKeyReader {
  set(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
}

export interface Write {
  key: Uint8Array;
  value: Uint8Array | undefined; // undefined: deleted
}

const hex = (key: Uint8Array) => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("hex");

/**
 * Pending writes over a reader: a block's writes over the committed state,
 * and a transaction's writes over the block's, so a failed transaction is
 * dropped by not committing its layer. Reads and iteration see the layer's
 * writes merged with what is below.
 */
export class CacheLayer implements WritableLayer {
  private readonly writes = new Map<string, Write>();

  constructor(private readonly parent: FullKeyReader) {}

  child(): CacheLayer {
    return new CacheLayer(this);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const write = this.writes.get(hex(key));
    return write ? write.value : this.parent.get(key);
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.writes.set(hex(key), { key: key.slice(), value: value.slice() });
  }

  delete(key: Uint8Array): void {
    this.writes.set(hex(key), { key: key.slice(), value: undefined });
  }

  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const lower = start ?? prefix;
    const pending = [...this.writes.values()]
      .filter((w) => startsWith(w.key, prefix) && compareBytes(w.key, lower) >= 0)
      .sort((a, b) => compareBytes(a.key, b.key));
    yield* overlaid(pending, this.parent.iterate(prefix, start));
  }

  /** Moves this layer's writes into the layer (or batch) below, in key order (`sorted`: this.sortedWrites(), when the caller has it already). */
  commitTo(target: { set(key: Uint8Array, value: Uint8Array): void; delete(key: Uint8Array): void }, sorted = this.sortedWrites()): void {
    for (const { key, value } of sorted) {
      if (value) target.set(key, value);
      else target.delete(key);
    }
    this.writes.clear();
  }

  /** Drops the writes (the caller committed them another way: StateBatch.setSortedFresh). */
  clear(): void {
    this.writes.clear();
  }

  /** The writes in key order (for the app hash). */
  sortedWrites(): Write[] {
    // lowercase hex of the keys sorts as the keys' bytes do, and strings sort natively
    return [...this.writes.keys()].sort().map((id) => this.writes.get(id)!);
  }
}

/**
 * A layer's pending writes (in key order; a deletion has no value) over the entries of the
 * layer below: the writes replace or hide what is below under the same key.
 */
export async function* overlaid(pending: Write[], below: AsyncGenerator<[Uint8Array, Uint8Array]>): AsyncGenerator<[Uint8Array, Uint8Array]> {
  try {
    let next = await below.next();
    let i = 0;
    while (!next.done || i < pending.length) {
      const write = pending[i];
      const order = next.done ? 1 : write ? compareBytes(next.value[0], write.key) : -1;
      if (order < 0) {
        yield next.value as [Uint8Array, Uint8Array];
        next = await below.next();
        continue;
      }
      if (order === 0) next = await below.next(); // this layer's write replaces the value below
      i++;
      if (write!.value) yield [write!.key, write!.value];
    }
  } finally {
    // A reader that stops early (a break, a throw) ends the read below too: else the LevelDB
    // iterator under it stays open, with its snapshot and read buffer, until the store closes.
    await below.return(undefined);
  }
}

function startsWith(key: Uint8Array, prefix: Uint8Array): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (key[i] !== prefix[i]) return false;
  return true;
}
