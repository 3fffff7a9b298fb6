import { FAST } from "./fastIndex.js";
import { fromLatin1, latin1 } from "./scanWindows.js";

/**
 * Point reads of the fast index at the latest version, kept in memory: the
 * accounts, parameters and balances every transaction reads again (each a
 * synchronous LevelDB read otherwise, on the event loop). A key is kept
 * once read (its absence too); a commit forgets the keys it wrote and keeps
 * the others. Bounded by `maxEntries`: when full, all are forgotten at once.
 */
export class LatestValues {
  private version = -1;
  /** User key → value (null: no such key), both as latin1 strings. */
  private readonly values = new Map<string, string | null>();

  constructor(private readonly maxEntries: number) {}

  /** Keys kept (their values or their absence). */
  get size(): number {
    return this.values.size;
  }

  /** The value of `key` at `version`, which must be the latest; `read` reads it from LevelDB when it is not kept. */
  get(version: number, key: Uint8Array, read: () => Uint8Array | undefined): Uint8Array | undefined {
    if (version !== this.version) this.retire(version);
    const id = latin1(key);
    const kept = this.values.get(id);
    if (kept !== undefined) return kept === null ? undefined : fromLatin1(kept);
    const value = read();
    if (this.values.size >= this.maxEntries) this.values.clear();
    this.values.set(id, value === undefined ? null : latin1(value));
    return value;
  }

  /** A commit made `version` the latest with these writes: their keys are forgotten (the values of any other version all are). */
  advance(version: number, writes: ReadonlyArray<{ key: Uint8Array }>): void {
    if (version !== this.version + 1) return this.retire(version);
    for (const { key } of writes) if (key[0] === FAST) this.values.delete(latin1(key.subarray(1)));
    this.version = version;
  }

  /** A new version is the latest: every kept value is forgotten. */
  retire(latest: number): void {
    this.version = latest;
    this.values.clear();
  }
}
