import { overlaid, type FullKeyReader, type WritableLayer } from "./cacheLayer.js";
import { ByteArena, DELETED_LENGTH, PackedWrites, WriteColumns } from "./packedWrites.js";
import { SORT_STEP, sortInSteps } from "./sortInSteps.js";

const latin1 = (key: Uint8Array) => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("latin1");

/** The bytes of a latin1 key (a Uint8Array, as a CacheLayer's keys are). */
function keyBytes(id: string): Uint8Array {
  const bytes = new Uint8Array(id.length);
  for (let i = 0; i < id.length; i++) bytes[i] = id.charCodeAt(i);
  return bytes;
}

/**
 * The writes of a genesis import's InitGenesis (millions of keys), kept with as few JS
 * objects as possible: a key is one latin1 string (a byte per character, so strings sort
 * as the keys' bytes do) mapped to its write number; keys and values are copied into an
 * arena outside the heap and found by position (WriteColumns). A CacheLayer keeps a hex id,
 * a record and two copies per key: objects that live through the whole import, which every
 * young-generation collection copied again (most of the import's GC). Reads and iteration
 * see the writes over `parent`, as a CacheLayer's do.
 */
export class GenesisLayer implements WritableLayer {
  private readonly ids = new Map<string, number>();
  private readonly arena = new ByteArena();
  private readonly columns = new WriteColumns();

  constructor(
    private readonly parent: FullKeyReader,
    /** Called after each write (the import's progress). */
    public onWrite: () => void = () => undefined,
  ) {}

  /** How many keys are written (or deleted). */
  get size(): number {
    return this.ids.size;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const n = this.ids.get(latin1(key));
    if (n === undefined) return this.parent.get(key);
    return this.value(n)?.slice(); // a copy: the caller may change it
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.record(key, value);
    this.onWrite();
  }

  delete(key: Uint8Array): void {
    this.record(key, undefined);
    this.onWrite();
  }

  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const from = latin1(start ?? prefix);
    const under = latin1(prefix);
    const pending = [...this.ids.keys()]
      .filter((id) => id.startsWith(under) && id >= from)
      .sort()
      .map((id) => ({ key: keyBytes(id), value: this.value(this.ids.get(id)!)?.slice() }));
    yield* overlaid(pending, this.parent.iterate(prefix, start));
  }

  /**
   * The writes in key order, packed over this layer's arena (valid while the layer is): the
   * keys sorted in steps (`onStep`: see sortInSteps), then their write numbers looked up.
   */
  async sortedWrites(onStep?: (n: number) => void): Promise<PackedWrites> {
    const sorted = await sortInSteps([...this.ids.keys()], onStep);
    const order = new Int32Array(sorted.length);
    for (let i = 0; i < sorted.length; i++) {
      order[i] = this.ids.get(sorted[i]!)!;
      if ((i + 1) % SORT_STEP === 0) {
        onStep?.(SORT_STEP);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    onStep?.(sorted.length % SORT_STEP);
    return new PackedWrites(this.arena, this.columns, order);
  }

  private record(key: Uint8Array, value: Uint8Array | undefined): void {
    const id = latin1(key);
    let n = this.ids.get(id);
    if (n === undefined) {
      n = this.ids.size;
      this.ids.set(id, n);
      this.columns.ensure(n);
      this.columns.keyAt[n] = this.arena.append(key);
      this.columns.keyLength[n] = key.length;
    }
    this.columns.valueAt[n] = value ? this.arena.append(value) : 0;
    this.columns.valueLength[n] = value ? value.length : DELETED_LENGTH;
  }

  private value(n: number): Uint8Array | undefined {
    const length = this.columns.valueLength[n]!;
    return length === DELETED_LENGTH ? undefined : this.arena.view(this.columns.valueAt[n]!, length);
  }
}

/** The state of a store that has never committed: what a first start's import is written over. */
export const EMPTY_STATE: FullKeyReader = {
  get: () => Promise.resolve(undefined),
  async *iterate() {},
};
