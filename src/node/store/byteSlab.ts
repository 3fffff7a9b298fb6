/**
 * Many small byte strings written into a few large buffers: the genesis commit writes two
 * LevelDB entries per key (hundreds of thousands of keys), and a buffer of its own for each
 * key and value part was most of the import's garbage collection. Each piece handed out is a
 * view into the current slab; a piece larger than a slab gets a buffer of its own.
 */
export class ByteSlab {
  private readonly slabs: Uint8Array[] = [];
  private current = 0;
  private slab: Uint8Array;
  private used = 0;

  constructor(private readonly slabBytes = 1 << 20) {
    this.slab = new Uint8Array(slabBytes);
    this.slabs.push(this.slab);
  }

  /** A writer over `length` fresh bytes. */
  take(length: number): SlabPiece {
    if (length > this.slabBytes) return new SlabPiece(new Uint8Array(length));
    if (this.used + length > this.slab.length) {
      if (++this.current === this.slabs.length) this.slabs.push(new Uint8Array(this.slabBytes));
      this.slab = this.slabs[this.current]!;
      this.used = 0;
    }
    const piece = this.slab.subarray(this.used, this.used + length);
    this.used += length;
    return new SlabPiece(piece);
  }

  /**
   * Hands out the same slabs again from the first: every piece handed out before is
   * overwritten (LevelDB copied them already). New slabs, each a MiB outside the JS heap,
   * are what made V8 collect its whole heap again and again during a large import.
   */
  reuse(): void {
    this.current = 0;
    this.slab = this.slabs[0]!;
    this.used = 0;
  }
}

/** Fills a piece from its start, part after part. */
export class SlabPiece {
  private at = 0;

  constructor(readonly bytes: Uint8Array) {}

  byte(b: number): this {
    this.bytes[this.at++] = b;
    return this;
  }

  append(part: Uint8Array): this {
    this.bytes.set(part, this.at);
    this.at += part.length;
    return this;
  }

  /** `length` bytes of `source` from `at` (no view of them made). */
  copy(source: Uint8Array, at: number, length: number): this {
    copyBytes(source, at, length, this.bytes, this.at);
    this.at += length;
    return this;
  }

  /** copy(), each 0x00 written as 0x00 0xFF (escapeKey's encoding; the piece has room for zerosIn's count more). */
  escapedCopy(source: Uint8Array, at: number, length: number): this {
    for (let i = at; i < at + length; i++) {
      const b = source[i]!;
      this.bytes[this.at++] = b;
      if (b === 0) this.bytes[this.at++] = 0xff;
    }
    return this;
  }

  /**
   * A version of up to 2^53 as 8 big-endian bytes; `inverted`: 2^64 − 1 − version (the
   * versioned keys' order, newest first), which is each byte's complement.
   */
  uint64(version: number, inverted = false): this {
    const high = Math.floor(version / 2 ** 32);
    const low = version >>> 0;
    const mask = inverted ? 0xffffffff : 0;
    this.word((high ^ mask) >>> 0);
    this.word((low ^ mask) >>> 0);
    return this;
  }

  private word(w: number): void {
    this.bytes[this.at++] = w >>> 24;
    this.bytes[this.at++] = (w >>> 16) & 0xff;
    this.bytes[this.at++] = (w >>> 8) & 0xff;
    this.bytes[this.at++] = w & 0xff;
  }
}

/** Parts up to this long are copied byte by byte: a view for `set` costs more than the loop. */
const LOOP_COPY_BYTES = 64;

/** Copies `length` bytes of `source` from `at` to `target` at `to`. */
export function copyBytes(source: Uint8Array, at: number, length: number, target: Uint8Array, to: number): void {
  if (length > LOOP_COPY_BYTES) {
    target.set(source.subarray(at, at + length), to);
    return;
  }
  for (let i = 0; i < length; i++) target[to + i] = source[at + i]!;
}

/** How many 0x00 bytes `length` bytes of `source` from `at` hold. */
export function zerosIn(source: Uint8Array, at: number, length: number): number {
  let zeros = 0;
  for (let i = at; i < at + length; i++) if (source[i] === 0) zeros++;
  return zeros;
}
