import type { ClassicLevel } from "classic-level";
import { compareBytes } from "./keyEncoding.js";
import { ScanWindows } from "./scanWindows.js";

/** The part of a LevelDB iterator that a scan uses. */
interface SeekableIterator {
  seek(target: Uint8Array): void;
  nextv(size: number): Promise<Array<[Uint8Array, Uint8Array]>>;
  close(): Promise<void>;
}

const MAX_IDLE = 64;
const PAGES = [16, 128, 1000]; // small first: a scan over the whole namespace reads past the prefix's end
/** Entries per fill (a read kept in ScanWindows): a thousand neighbouring prefixes then cost no trip to LevelDB. */
const FILL = 1000;
/** Memory for the kept reads of the latest version (the real node's iavl-cache-size is of the same order). */
const WINDOW_BYTES = 32 * 2 ** 20;
/** A read stops after this many key and value bytes (classic-level's highWaterMarkBytes; its 16 KiB default holds ~300 balances). */
const READ_BYTES = 256 * 1024;

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
  private readonly windows = new ScanWindows(WINDOW_BYTES);

  constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    private readonly namespace: { gte: Uint8Array; lt: Uint8Array },
  ) {}

  /** Whether an idle iterator of `version` is at hand (then `scan` needs no fresh snapshot). */
  has(version: number): boolean {
    return version === this.version && this.idle.length > 0;
  }

  /** The entries of [lower, upper) at `version` when kept reads hold that whole range (no LevelDB read then); undefined otherwise. */
  kept(version: number, lower: Uint8Array, upper: Uint8Array): Array<[Uint8Array, Uint8Array]> | undefined {
    return version === this.version ? this.windows.lookup(lower, upper) : undefined;
  }

  /**
   * Entries from `lower` (inclusive) to `upper` (exclusive), read at `version`:
   * an idle iterator of that version, or one opened now, which the caller must
   * only ask for while the database holds exactly that version.
   */
  scan(version: number, lower: Uint8Array, upper: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    if (version !== this.version) this.retire(version);
    return this.read(version, this.take(), lower, upper);
  }

  /** An idle iterator, or one opened now (a snapshot of the database as it is now). */
  private take(): SeekableIterator {
    return this.idle.pop() ?? this.db.iterator({ ...this.namespace, highWaterMarkBytes: READ_BYTES });
  }

  /** One fill at a time: concurrent scans that miss would otherwise each read the same neighbourhood. */
  private filling = false;

  private release(version: number, iterator: SeekableIterator): void {
    if (version === this.version && this.idle.length < MAX_IDLE) this.idle.push(iterator);
    else void iterator.close();
  }

  /** A new version is the latest: idle iterators and kept reads of the older one are dropped. */
  retire(latest: number): void {
    this.version = latest;
    this.windows.clear();
    for (const iterator of this.idle.splice(0)) void iterator.close();
  }

  /**
   * Reads the range a page at a time. When no other read is filling, the first
   * page is FILL entries from `lower` on, kept for the scans that follow: the
   * scan that missed pays for the neighbourhood's read once, and concurrent
   * misses meanwhile read only what they need.
   */
  private async *read(version: number, iterator: SeekableIterator, lower: Uint8Array, upper: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    let fills = !this.filling;
    if (fills) this.filling = true;
    let failed = false;
    try {
      iterator.seek(lower);
      for (let page = 0; ; page = Math.min(page + 1, PAGES.length - 1)) {
        const entries = await iterator.nextv(fills ? FILL : PAGES[page]!);
        if (fills) {
          // Kept only while still the latest: a commit during the read made it stale.
          // A read may stop short of FILL at READ_BYTES; only an empty one says the iterator ended.
          if (version === this.version) this.windows.keep(lower, entries, entries.length === 0);
          this.filling = fills = false;
        }
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
      if (fills) this.filling = false; // a read that failed or was dropped before its first page
      // Also when the consumer stopped half-way: the next scan seeks.
      if (failed) void iterator.close();
      else this.release(version, iterator);
    }
  }
}
