/** Byte order of keys (native: the searches below compare keys a few dozen times per scan). */
const compareBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b);

type Entry = [Uint8Array, Uint8Array];

/** A key range [low, high) of the fast index and every entry in it, as an iterator read them (no high: to the end). */
interface Window {
  low: Uint8Array;
  high: Uint8Array | undefined;
  entries: Entry[];
  bytes: number;
}

/** Counted per entry beyond its key and value bytes (two Uint8Arrays and the pair). */
const ENTRY_OVERHEAD = 160;

/**
 * Ranges of the fast index read by scans at the latest version, kept in memory
 * until the next commit: a read cache of the latest state, as the real node
 * keeps an IAVL node cache. A scan whose range lies in kept ranges is answered
 * from memory without a LevelDB read. Each LevelDB read is a trip to its thread
 * pool, which costs more than a short scan itself; one read of a thousand
 * entries answers the scans of every prefix it spans (a thousand accounts'
 * balances). Kept ranges never overlap: a read is cut where a kept range
 * begins. Bounded by `maxBytes`; the oldest ranges leave first.
 */
export class ScanWindows {
  /** Sorted by `low`, disjoint. */
  private windows: Window[] = [];
  /** The same, in the order they were kept, for eviction. */
  private order: Window[] = [];
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The entries of [lower, upper) when kept ranges hold all of it; undefined otherwise. */
  lookup(lower: Uint8Array, upper: Uint8Array): Entry[] | undefined {
    let i = this.lastStartingAtOrBefore(lower);
    if (i < 0) return undefined;
    let found: Entry[] = [];
    for (let from = lower; ; i++) {
      const window = this.windows[i];
      if (!window || compareBytes(window.low, from) > 0) return undefined; // a gap before `upper`
      const inside = window.high === undefined || compareBytes(upper, window.high) <= 0;
      const end = inside ? firstAtOrAfter(window.entries, upper) : window.entries.length;
      const part = window.entries.slice(firstAtOrAfter(window.entries, from), end);
      found = found.length === 0 ? part : found.concat(part);
      if (inside) return found;
      if (compareBytes(window.high!, from) <= 0) return undefined;
      from = window.high!; // the next kept range must start right there
    }
  }

  /**
   * Keeps the entries an iterator read from `low` on: the range up to and
   * including the last one, or to the end when `ended` (it read nothing more),
   * cut where a kept range begins. Nothing when `low` is in a kept range.
   */
  keep(low: Uint8Array, read: Entry[], ended: boolean): void {
    let high = ended ? undefined : successor(read.at(-1)![0]);
    const at = this.lastStartingAtOrBefore(low);
    const before = this.windows[at];
    if (before && (before.high === undefined || compareBytes(low, before.high) < 0)) return; // already kept
    const next = this.windows[at + 1];
    let entries = read;
    if (next && (high === undefined || compareBytes(next.low, high) < 0)) {
      high = next.low;
      entries = read.slice(0, firstAtOrAfter(read, next.low));
    }
    let bytes = 0;
    for (const [key, value] of entries) bytes += key.length + value.length + ENTRY_OVERHEAD;
    if (bytes > this.maxBytes) return;
    while (this.bytes + bytes > this.maxBytes) this.evictOldest();
    const window: Window = { low, high, entries, bytes };
    this.windows.splice(this.lastStartingAtOrBefore(low) + 1, 0, window);
    this.order.push(window);
    this.bytes += bytes;
  }

  /** Forgets every range (a commit made them stale). */
  clear(): void {
    this.windows = [];
    this.order = [];
    this.bytes = 0;
  }

  private evictOldest(): void {
    const oldest = this.order.shift()!;
    this.windows.splice(this.windows.indexOf(oldest), 1);
    this.bytes -= oldest.bytes;
  }

  private lastStartingAtOrBefore(key: Uint8Array): number {
    let lo = 0;
    let hi = this.windows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareBytes(this.windows[mid]!.low, key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}

function firstAtOrAfter(entries: Entry[], key: Uint8Array): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBytes(entries[mid]![0], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The smallest key after `key`. */
function successor(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
}
