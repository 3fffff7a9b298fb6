/** Read access to one module's keys (queries at a height, and transactions). */
export interface KVReader {
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Entries under `prefix` from `start` (relative to `prefix`) on, in key order; keys relative to `prefix`. */
  iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]>;
  /**
   * What iterate() gives, or its first `max` entries (fewer: that is all), when
   * they are in memory (a query's kept reads): answered without a promise per
   * entry; undefined otherwise.
   */
  kept?(prefix: Uint8Array, start?: Uint8Array, max?: number): Array<[Uint8Array, Uint8Array]> | undefined;
}

/** Read and write access to one module's keys during block execution. */
export interface KVStore extends KVReader {
  set(key: Uint8Array, value: Uint8Array): void;
  delete(key: Uint8Array): void;
}
