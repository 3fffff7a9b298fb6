import type { ClassicLevel } from "classic-level";
import { compareBytes } from "./keyEncoding.js";
import { ScanWindows, successor } from "./scanWindows.js";

/** The part of a LevelDB iterator that a scan uses. */
interface SeekableIterator {
  seek(target: Uint8Array): void;
  nextv(size: number): Promise<Array<[Uint8Array, Uint8Array]>>;
  close(): Promise<void>;
}

const MAX_IDLE = 64;
/** Entries per read: each read is kept (ScanWindows), so that a thousand neighbouring prefixes cost one trip to LevelDB. */
const PAGE = 1000;
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
  kept(version: number, lower: Uint8Array, upper: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> | undefined {
    const entries = version === this.version ? this.windows.lookup(lower, upper) : undefined;
    return entries && fromMemory(entries);
  }

  /**
   * Entries from `lower` (inclusive) to `upper` (exclusive), read at `version`:
   * an idle iterator of that version, or one opened now, which the caller must
   * only ask for while the database holds exactly that version.
   */
  scan(version: number, lower: Uint8Array, upper: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    if (version !== this.version) this.retire(version);
    const iterator = this.idle.pop() ?? this.db.iterator({ ...this.namespace, highWaterMarkBytes: READ_BYTES });
    return this.read(version, iterator, lower, upper);
  }

  /** A new version is the latest: idle iterators and kept reads of the older one are dropped. */
  retire(latest: number): void {
    this.version = latest;
    this.windows.clear();
    for (const iterator of this.idle.splice(0)) void iterator.close();
  }

  private async *read(version: number, iterator: SeekableIterator, lower: Uint8Array, upper: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    let failed = false;
    try {
      iterator.seek(lower);
      for (let low = lower; ;) {
        const entries = await iterator.nextv(PAGE);
        // Kept only while still the latest: a commit during the read made it stale.
        // A read may stop short of PAGE at READ_BYTES; only an empty one says the iterator ended.
        if (version === this.version) this.windows.keep(low, entries, entries.length === 0);
        if (entries.length === 0) return;
        for (const entry of entries) {
          if (compareBytes(entry[0], upper) >= 0) return;
          yield entry;
        }
        low = successor(entries.at(-1)![0]); // the next read holds every key after the last one
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

async function* fromMemory(entries: Array<[Uint8Array, Uint8Array]>): AsyncGenerator<[Uint8Array, Uint8Array]> {
  yield* entries;
}
