import type { Database, Transaction } from "lmdb";
import { FAST, fastKey } from "./fastIndex.js";
import { compareBytes, concatBytes, prefixEnd } from "./keyEncoding.js";
import { fillBound } from "./keyFamily.js";
import { FILL, WINDOW_BYTES } from "./latestScans.js";
import { LatestValues } from "./latestValues.js";
import { ScanWindows } from "./scanWindows.js";
import type { StateReader } from "./versionedStore.js";
import { KEPT_VALUES } from "./versionedStore.js";

type Entry = [Uint8Array, Uint8Array];
type Db = Database<Uint8Array, Uint8Array>;

/** Where the fast index's keys end in the copy (its 'h' and 's' keys lie past it). */
const NAMESPACE_END = Uint8Array.of(FAST + 1);
/** Keys of the copy carry the fast index's namespace byte; its values are the state's own. */
const KEY_ONLY = { key: 1, value: 0 };

/**
 * A thrown signal: the copy moved on while a query that began over kept reads
 * went to LMDB for a read it did not keep, so that read would be of a newer
 * state than the rest. The query is asked again over one read transaction.
 */
export class ReplicaMoved extends Error {
  constructor() {
    super("the workers' copy of the state moved on during the query");
  }
}

/**
 * Reads of one write of the workers' copy (one stamp sequence, replicaStamp.ts)
 * kept in a worker's memory, as one process keeps the latest state's reads
 * (latestValues.ts, latestScans.ts): point reads (KEPT_VALUES entries, all
 * forgotten when full) and scanned ranges with a miss's neighbours (a thousand
 * entries, WINDOW_BYTES, the oldest ranges leave first). A new sequence is a new
 * generation: the worker drops the old one whole (it has no list of what a write
 * changed); queries still running over the old one finish with it.
 */
export class ReplicaGeneration {
  readonly values = new LatestValues(KEPT_VALUES);
  readonly windows = new ScanWindows(WINDOW_BYTES);

  constructor(
    readonly sequence: number,
    readonly version: number,
  ) {}
}

/**
 * One query's view of the copy over a generation's kept reads: a miss reads
 * LMDB in a transaction of the same sequence, opened at the first miss
 * (`begin`, which throws ReplicaMoved when the copy is at another sequence by then).
 */
export class KeptReplicaSnapshot implements StateReader {
  constructor(
    private readonly db: Db,
    private readonly generation: ReplicaGeneration,
    private readonly begin: (sequence: number) => Transaction,
    private transaction?: Transaction,
  ) {}

  get version(): number {
    return this.generation.version;
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    try {
      return Promise.resolve(this.generation.values.get(this.generation.sequence, key, () => this.db.get(fastKey(key), { transaction: this.reading() })));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err))); // ReplicaMoved (or LMDB's error), as an async read rejects
    }
  }

  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<Entry> {
    const lower = fastKey(start ?? prefix);
    const upper = prefixEnd(fastKey(prefix)) ?? NAMESPACE_END;
    const kept = this.generation.windows.lookup(lower, upper, KEY_ONLY);
    if (kept) return yield* kept;
    // a miss reads up to FILL entries on from `lower` (its neighbours, to where the next kept range or its key family ends) and keeps them
    const { windows } = this.generation;
    const bound = fillBound(lower, windows.nextLow(lower) ?? NAMESPACE_END)!;
    const end = compareBytes(bound, upper) > 0 ? bound : upper;
    const transaction = this.reading();
    const read: Entry[] = [];
    for (const { key, value } of this.db.getRange({ start: lower, end, limit: FILL, transaction })) read.push([key, value]);
    const ended = read.length < FILL;
    const last = read.at(-1)?.[0];
    windows.keep(lower, read, ended ? end : concatBytes(last!, Uint8Array.of(0)));
    for (const [key, value] of read) {
      if (compareBytes(key, upper) >= 0) return;
      yield [key.subarray(1), value];
    }
    if (ended) return;
    // a long range goes on past the fill, read but not kept
    for (const { key, value } of this.db.getRange({ start: concatBytes(last!, Uint8Array.of(0)), end: upper, transaction })) yield [key.subarray(1), value];
  }

  keptUnder(prefix: Uint8Array, start?: Uint8Array, max?: number): Entry[] | undefined {
    const upper = prefixEnd(fastKey(prefix)) ?? NAMESPACE_END;
    return this.generation.windows.lookup(fastKey(start ?? prefix), upper, { key: 1 + prefix.length, value: 0 }, max);
  }

  done(): void {
    this.transaction?.done();
  }

  private reading(): Transaction {
    this.transaction ??= this.begin(this.generation.sequence);
    return this.transaction;
  }
}
