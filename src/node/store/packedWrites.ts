/** Bytes of one arena buffer (outside the JS heap). */
const ARENA_BYTES = 16 << 20;
/** A position in an arena: buffer number × this + offset. */
const BUFFER_SPAN = 2 ** 32;
/** The value length of a deleted key. */
export const DELETED_LENGTH = -1;

/**
 * Byte strings copied one after another into large buffers, each found again by its
 * position: millions of keys and values with no JS object of their own.
 */
export class ByteArena {
  private readonly buffers: Uint8Array[] = [];
  private used = 0;

  /** Copies `bytes` in; their position. */
  append(bytes: Uint8Array): number {
    if (this.buffers.length === 0 || bytes.length > ARENA_BYTES - this.used) {
      this.buffers.push(new Uint8Array(Math.max(ARENA_BYTES, bytes.length)));
      this.used = 0;
    }
    const at = this.used;
    this.buffers[this.buffers.length - 1]!.set(bytes, at);
    this.used += bytes.length;
    return (this.buffers.length - 1) * BUFFER_SPAN + at;
  }

  /** The buffer holding the bytes at `position`. */
  bufferOf(position: number): Uint8Array {
    return this.buffers[Math.floor(position / BUFFER_SPAN)]!;
  }

  /** The offset in bufferOf(position). */
  offsetOf(position: number): number {
    return position % BUFFER_SPAN;
  }

  /** A view of `length` bytes at `position`. */
  view(position: number, length: number): Uint8Array {
    const buffer = this.bufferOf(position);
    return new Uint8Array(buffer.buffer, buffer.byteOffset + this.offsetOf(position), length);
  }
}

/** Growable columns of numbers: a write's key and value positions and lengths. */
export class WriteColumns {
  keyAt = new Float64Array(1 << 12);
  keyLength = new Int32Array(1 << 12);
  valueAt = new Float64Array(1 << 12);
  /** DELETED_LENGTH for a deleted key. */
  valueLength = new Int32Array(1 << 12);

  /** Room for write number `n`. */
  ensure(n: number): void {
    if (n < this.keyAt.length) return;
    const size = Math.max(n + 1, this.keyAt.length * 2);
    this.keyAt = grown(this.keyAt, new Float64Array(size));
    this.keyLength = grown(this.keyLength, new Int32Array(size));
    this.valueAt = grown(this.valueAt, new Float64Array(size));
    this.valueLength = grown(this.valueLength, new Int32Array(size));
  }
}

function grown<T extends Float64Array | Int32Array>(old: T, to: T): T {
  to.set(old);
  return to;
}

/**
 * Writes in key order, packed: the i-th write is write number order[i] of the columns,
 * its bytes in the arena. What the genesis import hashes and commits, read by position
 * rather than as an object per write.
 */
export class PackedWrites {
  constructor(
    readonly arena: ByteArena,
    readonly columns: WriteColumns,
    readonly order: Int32Array,
  ) {}

  get length(): number {
    return this.order.length;
  }

  /** Writes already in key order, packed (a block's few writes, the tests'). */
  static of(writes: Iterable<{ key: Uint8Array; value: Uint8Array | undefined }>): PackedWrites {
    const arena = new ByteArena();
    const columns = new WriteColumns();
    let n = 0;
    for (const { key, value } of writes) {
      columns.ensure(n);
      columns.keyAt[n] = arena.append(key);
      columns.keyLength[n] = key.length;
      columns.valueAt[n] = value ? arena.append(value) : 0;
      columns.valueLength[n] = value ? value.length : DELETED_LENGTH;
      n++;
    }
    return new PackedWrites(
      arena,
      columns,
      Int32Array.from({ length: n }, (_, i) => i),
    );
  }

  keyAt(i: number): number {
    return this.columns.keyAt[this.order[i]!]!;
  }

  keyLength(i: number): number {
    return this.columns.keyLength[this.order[i]!]!;
  }

  valueAt(i: number): number {
    return this.columns.valueAt[this.order[i]!]!;
  }

  /** DELETED_LENGTH when the write deletes the key. */
  valueLength(i: number): number {
    return this.columns.valueLength[this.order[i]!]!;
  }
}
