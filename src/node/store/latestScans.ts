import type { ClassicLevel } from "classic-level";
import { compareBytes, concatBytes } from "./keyEncoding.js";
import { fillBound } from "./keyFamily.js";
import { latin1, ScanWindows } from "./scanWindows.js";

type Entry = [Uint8Array, Uint8Array];

const PAGES = [16, 128, 1000];
/** Entries per fill (a read kept in ScanWindows): a thousand neighbouring prefixes then cost no trip to LevelDB. */
export const FILL = 1000;
/** Memory for the kept reads of the latest version (the real node's iavl-cache-size is of the same order). */
export const WINDOW_BYTES = 32 * 2 ** 20;
/** A commit with more writes than this drops the kept reads rather than update them (each write is a sorted insert). */
const MAX_APPLIED = 20_000;
/** A read stops after this many key and value bytes (classic-level's highWaterMarkBytes; its 16 KiB default holds ~300 balances). */
const READ_BYTES = 256 * 1024;

/**
 * Scans of the fast index at the latest version. A scan whose range lies in
 * kept reads (ScanWindows) costs no LevelDB read. One that misses reads, as
 * its first page, up to FILL entries from its start, and keeps those before
 * where the next kept read begins, for the scans that follow: one fill at a time
 * per gap between kept reads (two would read the same entries); while a gap
 * is being filled, other misses in it read exactly their own range.
 * Kept reads belong to one version: a commit updates them with its writes (advance).
 */
export class LatestScans {
  private version = -1;
  private readonly windows = new ScanWindows(WINDOW_BYTES);
  /** The gaps being filled, by where their fill ends (latin1). */
  private readonly filling = new Set<string>();

  constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    private readonly namespace: { gte: Uint8Array; lt: Uint8Array },
  ) {}

  get heldBytes(): number {
    return this.windows.heldBytes;
  }

  /**
   * The entries of [lower, upper) at `version`, or its first `max`, when kept reads
   * hold them (no LevelDB read then), `cut` bytes dropped from their keys and values; undefined otherwise.
   */
  kept(version: number, lower: Uint8Array, upper: Uint8Array, cut?: { key: number; value: number }, max?: number): Entry[] | undefined {
    return version === this.version ? this.windows.lookup(lower, upper, cut, max) : undefined;
  }

  /**
   * Entries from `lower` (inclusive) to `upper` (exclusive) at `version`, read
   * through an iterator opened now: the caller must only ask while the
   * database holds exactly that version. Only with `keepsReads` may the read
   * fill a gap of the kept reads.
   */
  scan(version: number, lower: Uint8Array, upper: Uint8Array, keepsReads: boolean): AsyncGenerator<Entry> {
    if (version !== this.version) this.retire(version);
    if (!keepsReads) return this.read(version, this.db.iterator({ gte: lower, lt: upper, highWaterMarkBytes: READ_BYTES }), lower, upper, undefined);
    const bound = fillBound(lower, this.windows.nextLow(lower) ?? this.namespace.lt)!;
    const gap = latin1(bound);
    const mayFill = !this.filling.has(gap);
    // A fill reads on to the gap's end or its key family's (the neighbours of a short scan), or to the
    // scan's end past it (a page of a long range: what it reads past the gap is not kept, keep() cuts it there).
    const end = mayFill && compareBytes(bound, upper) > 0 ? bound : upper;
    const iterator = this.db.iterator({ gte: lower, lt: end, highWaterMarkBytes: READ_BYTES }); // the snapshot: now
    return this.read(version, iterator, lower, upper, mayFill ? { end, gap } : undefined);
  }

  /**
   * A commit made `version` the latest with these writes: applied to the
   * kept reads of the version before it, they are that version's (a live
   * chain keeps its read cache from block to block). Kept reads of any other
   * version, or a commit of more than MAX_APPLIED writes, are dropped instead.
   */
  advance(version: number, writes: ReadonlyArray<{ type: "put" | "del"; key: Uint8Array; value?: Uint8Array }>): void {
    if (version !== this.version + 1 || writes.length > MAX_APPLIED) return this.retire(version);
    for (const write of writes) {
      if (compareBytes(write.key, this.namespace.gte) < 0 || compareBytes(write.key, this.namespace.lt) >= 0) continue;
      this.windows.write(write.key, write.type === "put" ? write.value : undefined);
    }
    this.version = version;
  }

  /** A new version is the latest: kept reads of the older one are dropped. */
  retire(latest: number): void {
    this.version = latest;
    this.windows.clear();
  }

  /**
   * Reads [lower, upper) a page at a time; with `fill`, the first page fills
   * [lower, fill.end) when no other read is filling that gap by then.
   */
  private async *read(
    version: number,
    iterator: { nextv(size: number): Promise<Entry[]>; close(): Promise<void> },
    lower: Uint8Array,
    upper: Uint8Array,
    fill: { end: Uint8Array; gap: string } | undefined,
  ): AsyncGenerator<Entry> {
    let fills = fill !== undefined && !this.filling.has(fill.gap);
    if (fills) this.filling.add(fill!.gap);
    try {
      for (let page = 0; ; page = Math.min(page + 1, PAGES.length - 1)) {
        const size = fills ? FILL : PAGES[page]!;
        const entries = await iterator.nextv(size);
        const ended = readToEnd(entries, size);
        if (fills) {
          // Kept only while still the latest: a commit during the read made it stale.
          const high = ended ? fill!.end : concatBytes(entries.at(-1)![0], Uint8Array.of(0));
          if (version === this.version) this.windows.keep(lower, entries, high);
          this.filling.delete(fill!.gap);
          fills = false;
        }
        for (const entry of entries) {
          if (compareBytes(entry[0], upper) >= 0) return;
          yield entry;
        }
        if (ended) return;
      }
    } finally {
      if (fills) this.filling.delete(fill!.gap); // a read that failed or was dropped before its first page
      void iterator.close();
    }
  }
}

/**
 * Whether a page of `size` asked of an iterator is all it had left: fewer
 * entries than asked, and not because the page reached READ_BYTES (classic-level
 * stops a page at its highWaterMarkBytes of keys and values, or at the end).
 */
function readToEnd(entries: Entry[], size: number): boolean {
  if (entries.length >= size) return false;
  let bytes = 0;
  for (const [key, value] of entries) bytes += key.length + value.length;
  return bytes <= READ_BYTES;
}
