import type { ClassicLevel } from "classic-level";
import { bytesEqual, compareBytes, concatBytes, decodeVersioned, escapeKey } from "./keyEncoding.js";
import { fillBound } from "./keyFamily.js";
import { latin1, ScanWindows } from "./scanWindows.js";

type Entry = [Uint8Array, Uint8Array];

/** Keys resolved per fill: the newest version at the height of a thousand neighbouring keys. */
const FILL = 1000;
/** Raw entries (versions) asked of LevelDB at a time. */
const PAGE = 1000;
/** Versions whose reads are kept, and the memory each may hold: the least recently read version leaves first. */
const KEPT_VERSIONS = 2;
const VERSION_BYTES = 32 * 2 ** 20;

/** How the versioned keyspace is laid out (versionedStore.ts): its namespace byte and the first byte of a live value. */
export interface VersionedLayout {
  state: number;
  live: number;
}

/**
 * Scans of the state at an earlier kept version. The state at a committed
 * height never changes, so what a scan at height H read answers every later
 * scan of that range at H, from memory, until H is pruned: a query at an
 * earlier height costs what one at the latest does once its neighbourhood is
 * kept. A scan that misses reads, as its first part, the newest version at H
 * of up to FILL keys from its start, and keeps those before where the next
 * kept range begins (ScanWindows, keys and values as the versions resolve
 * them); one fill at a time per gap, other misses in it read exactly their own range.
 */
export class EarlierScans {
  /** Kept reads by version, the most recently read last. */
  private readonly byVersion = new Map<number, ScanWindows>();
  /** The gaps being filled, by version and where they end. */
  private readonly filling = new Set<string>();

  constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    private readonly layout: VersionedLayout,
  ) {}

  get heldBytes(): number {
    let bytes = 0;
    for (const windows of this.byVersion.values()) bytes += windows.heldBytes;
    return bytes;
  }

  /** The live entries of [lower, upper) at `version`, or its first `max`, when kept reads hold them, `cut` bytes dropped from their keys; undefined otherwise. */
  kept(version: number, lower: Uint8Array, upper: Uint8Array, cut = 0, max?: number): Entry[] | undefined {
    return this.byVersion.get(version)?.lookup(lower, upper, { key: cut, value: 0 }, max);
  }

  /**
   * The live entries of [lower, upper) at `version` (no upper: to the end of
   * the keys), in key order; with `keepsReads`, a miss fills the gap it starts in.
   */
  async *scan(version: number, lower: Uint8Array, upper: Uint8Array | undefined, keepsReads: boolean): AsyncGenerator<Entry> {
    const windows = keepsReads && upper ? this.windowsOf(version) : undefined;
    const bound = windows && fillBound(lower, windows.nextLow(lower));
    const gap = `${version} ${bound ? latin1(bound) : ""}`;
    if (!windows || this.filling.has(gap)) {
      yield* this.resolve(version, lower, upper);
      return;
    }
    this.filling.add(gap);
    let read: { entries: Entry[]; high: Uint8Array | undefined; ended: boolean };
    try {
      // On to the gap's end or its key family's (a short scan's neighbours), or to the scan's end past it
      // (a page of a long range: keep() cuts what it read there); with neither, on to the end of the keys.
      const end = bound === undefined ? undefined : compareBytes(bound, upper!) > 0 ? bound : upper;
      read = await this.fill(version, lower, end);
      if (this.byVersion.get(version) === windows) windows.keep(lower, read.entries, read.high);
    } finally {
      this.filling.delete(gap);
    }
    for (const entry of read.entries) {
      if (upper && compareBytes(entry[0], upper) >= 0) return;
      yield entry;
    }
    if (read.ended || (upper && read.high && compareBytes(read.high, upper) >= 0)) return;
    yield* this.resolve(version, read.high!, upper); // the scan goes on past what the fill read
  }

  /** Versions below `earliest` can no longer be read: their kept reads go. */
  prune(earliest: number): void {
    for (const version of this.byVersion.keys()) if (version < earliest) this.byVersion.delete(version);
  }

  /** Versions above `latest` were forgotten (a revert) and will be written again: their kept reads go. */
  forgetAbove(latest: number): void {
    for (const version of this.byVersion.keys()) if (version > latest) this.byVersion.delete(version);
  }

  /** The kept reads of `version`, made the most recently read; a new version's may push out the least recently read one's. */
  private windowsOf(version: number): ScanWindows {
    let windows = this.byVersion.get(version);
    if (windows) this.byVersion.delete(version);
    else windows = new ScanWindows(VERSION_BYTES);
    this.byVersion.set(version, windows);
    if (this.byVersion.size > KEPT_VERSIONS) this.byVersion.delete(this.byVersion.keys().next().value!);
    return windows;
  }

  /**
   * Up to FILL live entries of [lower, end) at `version`, and the key the read
   * reached (exclusive): `end` when it read to it (ended), else just past the last key it resolved.
   */
  private async fill(
    version: number,
    lower: Uint8Array,
    end: Uint8Array | undefined,
  ): Promise<{ entries: Entry[]; high: Uint8Array | undefined; ended: boolean }> {
    const entries: Entry[] = [];
    let resolved = 0;
    let last: Uint8Array | undefined;
    for await (const [key, value] of this.versions(version, lower, end)) {
      if (resolved === FILL) return { entries, high: concatBytes(last!, Uint8Array.of(0)), ended: false };
      resolved++;
      last = key;
      if (value) entries.push([key, value]);
    }
    return { entries, high: end, ended: true };
  }

  /** The live entries of [lower, upper) at `version`. */
  private async *resolve(version: number, lower: Uint8Array, upper: Uint8Array | undefined): AsyncGenerator<Entry> {
    for await (const [key, value] of this.versions(version, lower, upper)) if (value) yield [key, value];
  }

  /** Each key of [lower, upper) with its value at `version` (undefined: deleted by then), read a page of versions at a time. */
  private async *versions(version: number, lower: Uint8Array, upper: Uint8Array | undefined): AsyncGenerator<[Uint8Array, Uint8Array | undefined]> {
    const { state, live } = this.layout;
    const iterator = this.db.iterator({
      gte: concatBytes(Uint8Array.of(state), escapeKey(lower)),
      lt: upper ? concatBytes(Uint8Array.of(state), escapeKey(upper)) : Uint8Array.of(state + 1),
    });
    try {
      let current: Uint8Array | undefined; // the key whose newest version at `version` was already decided
      for (;;) {
        const page = await iterator.nextv(PAGE);
        if (page.length === 0) return;
        for (const [rawKey, value] of page) {
          const decoded = decodeVersioned(rawKey.subarray(1));
          if (decoded.version > version) continue; // written after the height being read
          if (current && bytesEqual(current, decoded.key)) continue; // an older version of a key already decided
          current = decoded.key;
          yield [decoded.key, value[0] === live ? value.subarray(1) : undefined];
        }
      }
    } finally {
      await iterator.close();
    }
  }
}
