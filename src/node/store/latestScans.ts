import type { ClassicLevel } from "classic-level";
import { compareBytes } from "./keyEncoding.js";

/** The part of a LevelDB iterator that a scan uses. */
interface SeekableIterator {
  seek(target: Uint8Array): void;
  nextv(size: number): Promise<Array<[Uint8Array, Uint8Array]>>;
  close(): Promise<void>;
}

const MAX_IDLE = 64;
const PAGES = [16, 128, 1000]; // small first: a scan over the whole namespace reads past the prefix's end

/**
 * Iterators over the fast index kept open for the latest version. Opening and
 * closing a LevelDB iterator (a snapshot, a merging iterator over every table)
 * costs more than the scan of a short prefix; an idle iterator of the same
 * version is moved to the prefix with a seek instead. An iterator reads the
 * snapshot taken when it was opened, so one opened at version v answers v for
 * as long as it lives; those of an older version are closed once idle.
 */
export class LatestScans {
  private version = -1;
  private idle: SeekableIterator[] = [];

  constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    private readonly namespace: { gte: Uint8Array; lt: Uint8Array },
  ) {}

  /** Whether an idle iterator of `version` is at hand (then `scan` needs no fresh snapshot). */
  has(version: number): boolean {
    return version === this.version && this.idle.length > 0;
  }

  /**
   * Entries from `lower` (inclusive) to `upper` (exclusive), read at `version`:
   * an idle iterator of that version, or one opened now, which the caller must
   * only ask for while the database holds exactly that version.
   */
  scan(version: number, lower: Uint8Array, upper: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    if (version !== this.version) this.retire(version);
    const iterator = this.idle.pop() ?? this.db.iterator(this.namespace);
    return this.read(version, iterator, lower, upper);
  }

  /** A new version is the latest: idle iterators of the older one are closed. */
  retire(latest: number): void {
    this.version = latest;
    for (const iterator of this.idle.splice(0)) void iterator.close();
  }

  private async *read(version: number, iterator: SeekableIterator, lower: Uint8Array, upper: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    let failed = false;
    try {
      iterator.seek(lower);
      for (let page = 0; ; page = Math.min(page + 1, PAGES.length - 1)) {
        const entries = await iterator.nextv(PAGES[page]!);
        if (entries.length === 0) return;
        for (const entry of entries) {
          if (compareBytes(entry[0], upper) >= 0) return;
          yield entry;
        }
      }
    } catch (err) {
      failed = true;
      throw err;
    } finally {
      // Also when the consumer stopped half-way: the next scan seeks.
      if (!failed && version === this.version && this.idle.length < MAX_IDLE) this.idle.push(iterator);
      else void iterator.close();
    }
  }
}
