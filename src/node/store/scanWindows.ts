type Entry = [Uint8Array, Uint8Array];

/**
 * A key as a latin1 string: one character per byte, so strings order as the
 * bytes do, and V8 compares them natively (cheaper than a byte loop that
 * meets both Buffers and plain Uint8Arrays).
 */
type Key = string;

/**
 * What `buffer.toString("latin1")` calls: it reads any Uint8Array, so a key
 * needs no Buffer view made of it first (not in @types/node).
 */
const latin1Slice = (Buffer.prototype as unknown as { latin1Slice: (this: Uint8Array, start: number, end: number) => string }).latin1Slice;

/** Bytes as a latin1 string (a Key, or a kept value). */
export function latin1(bytes: Uint8Array): string {
  return latin1Slice.call(bytes, 0, bytes.length);
}

/** A latin1 string (a Key, or a kept value) as bytes again, from character `from` on. */
export function fromLatin1(text: string, from = 0): Uint8Array {
  return Buffer.from(from === 0 ? text : text.slice(from), "latin1");
}

const NO_CUT = { key: 0, value: 0 };

/** A key range [low, high) of the kept state and every entry in it (no high: to the end of the keys). */
interface Window {
  low: Key;
  high: Key | undefined;
  /**
   * The entries' keys in order, and their values, both as latin1 strings: no
   * Uint8Array (and its own backing store, which the collector tracks one by
   * one) is kept per entry.
   */
  keys: Key[];
  values: string[];
  bytes: number;
}

/** Counted per entry beyond its key and value bytes (two string headers, two array slots). */
const ENTRY_OVERHEAD = 64;

/**
 * Ranges of the state read by scans of one version, kept in memory: the fast
 * index at the latest version, updated by each commit's writes (write), and
 * an earlier version's keys as its versions resolve them (earlierScans.ts),
 * which never change; a read cache of the state, as the real node keeps an
 * IAVL node cache. A scan whose range lies in kept ranges is answered
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

  /** Bytes the kept ranges take (as counted against maxBytes). */
  get heldBytes(): number {
    return this.bytes;
  }

  /**
   * The entries of [lower, upper), or its first `max` entries, when kept ranges
   * hold them; undefined otherwise (fewer than `max` entries: that is all of
   * the range). `cut` drops that many leading bytes of each key and value (a
   * prefix the caller's keys are relative to, a header of the values).
   */
  lookup(lowerBytes: Uint8Array, upperBytes: Uint8Array, cut: { key: number; value: number } = NO_CUT, max = Infinity): Entry[] | undefined {
    const lower = latin1(lowerBytes);
    const upper = latin1(upperBytes);
    let i = this.lastStartingAtOrBefore(lower);
    if (i < 0) return undefined;
    const found: Entry[] = [];
    for (let from = lower; ; i++) {
      const window = this.windows[i];
      if (!window || window.low > from) return undefined; // a gap before `upper`
      const inside = window.high === undefined || upper <= window.high;
      const keys = window.keys;
      // the range's end is found by walking it (a prefix holds few keys), not by another search
      for (let e = firstAtOrAfter(keys, from); e < keys.length && keys[e]! < upper; e++) {
        found.push([fromLatin1(keys[e]!, cut.key), fromLatin1(window.values[e]!, cut.value)]);
        if (found.length === max) return found;
      }
      if (inside) return found;
      if (window.high! <= from) return undefined;
      from = window.high!; // the next kept range must start right there
    }
  }

  /**
   * Keeps the entries of [low, high) (no high: to the end of the keys), all
   * that a read of that range found, cut where a kept range begins. When `low`
   * is in a kept range, only what lies past that range's end.
   */
  keep(lowBytes: Uint8Array, read: Entry[], highBytes: Uint8Array | undefined): void {
    let low = latin1(lowBytes);
    let high = highBytes && latin1(highBytes);
    let keys = read.map(([key]) => latin1(key));
    let values = read.map(([, value]) => latin1(value));
    let at = this.lastStartingAtOrBefore(low);
    const before = this.windows[at];
    if (before && (before.high === undefined || low < before.high)) {
      // `low` is kept already: what the read found past that range is kept right after it (a scan
      // that ends past a kept range's end, with no kept range there, would otherwise miss every time)
      if (before.high === undefined || (high !== undefined && high <= before.high)) return;
      low = before.high;
      const from = firstAtOrAfter(keys, low);
      keys = keys.slice(from);
      values = values.slice(from);
      at = this.lastStartingAtOrBefore(low);
      if (this.windows[at]!.low === low) return; // kept from there on too
    }
    const next = this.windows[at + 1];
    if (next && (high === undefined || next.low < high)) {
      high = next.low;
      const cut = firstAtOrAfter(keys, next.low);
      keys = keys.slice(0, cut);
      values = values.slice(0, cut);
    }
    let bytes = 0;
    for (let e = 0; e < keys.length; e++) bytes += keys[e]!.length + values[e]!.length + ENTRY_OVERHEAD;
    if (bytes > this.maxBytes) return;
    while (this.bytes + bytes > this.maxBytes) this.evictOldest();
    const window: Window = { low, high, keys, values, bytes };
    this.windows.splice(this.lastStartingAtOrBefore(low) + 1, 0, window);
    this.order.push(window);
    this.bytes += bytes;
  }

  /** Where the first kept range after `key` begins (undefined: none does): a read from `key` need not go past it. */
  nextLow(key: Uint8Array): Uint8Array | undefined {
    const next = this.windows[this.lastStartingAtOrBefore(latin1(key)) + 1];
    return next && fromLatin1(next.low);
  }

  /**
   * A committed write to the key: within a kept range, the entry is set to
   * `valueBytes` or, without one, removed; outside every kept range nothing
   * is kept, so nothing changes.
   */
  write(keyBytes: Uint8Array, valueBytes: Uint8Array | undefined): void {
    const key = latin1(keyBytes);
    const window = this.windows[this.lastStartingAtOrBefore(key)];
    if (!window || (window.high !== undefined && key >= window.high)) return;
    const at = firstAtOrAfter(window.keys, key);
    const present = window.keys[at] === key;
    const before = present ? key.length + window.values[at]!.length + ENTRY_OVERHEAD : 0;
    if (valueBytes === undefined) {
      if (!present) return;
      window.keys.splice(at, 1);
      window.values.splice(at, 1);
    } else if (present) {
      window.values[at] = latin1(valueBytes);
    } else {
      window.keys.splice(at, 0, key);
      window.values.splice(at, 0, latin1(valueBytes));
    }
    const after = valueBytes === undefined ? 0 : key.length + window.values[at]!.length + ENTRY_OVERHEAD;
    window.bytes += after - before;
    this.bytes += after - before;
    while (this.bytes > this.maxBytes) this.evictOldest();
  }

  /** Forgets every range (they belong to an older version than the latest). */
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

  private lastStartingAtOrBefore(key: Key): number {
    let lo = 0;
    let hi = this.windows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.windows[mid]!.low <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
}

function firstAtOrAfter(keys: Key[], key: Key): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
