import { ClassicLevel } from "classic-level";
import { concatBytes, decodeVersioned, encodeVersioned, escapeKey, prefixEnd, uint64Bytes, unescapeKey } from "./keyEncoding.js";
import { ByteSlab, zerosIn } from "./byteSlab.js";
import { DELETED_LENGTH, PackedWrites } from "./packedWrites.js";
import { LatestScans } from "./latestScans.js";
import { LatestValues } from "./latestValues.js";
import { EarlierScans } from "./earlierScans.js";
import { buildFastIndex, FAST, FAST_VALUE_HEADER, fastEntryValue, fastEntryVersion, fastKey, fastValue } from "./fastIndex.js";

/**
 * Multi-version key-value state over LevelDB. Every commit writes a new
 * version (the block height); reads name the version they see. Old versions
 * are pruned once no kept height can read them, so the store answers
 * historical queries for the last N heights at the cost of N versions of the
 * keys that changed, not N copies of the state.
 *
 * Reads at the latest version go to the fast index (fastIndex.ts): one point
 * lookup per key, one iterator per prefix scan over the live keys only.
 *
 * LevelDB namespaces (first byte): s = state, f = fast index, p = change log, m = meta/chain data.
 *
 * The change log has one entry per key a version wrote: at height y, key k,
 * the state key of the version it superseded (empty for a key new at y). Pruning
 * reads it to drop superseded versions; revert() reads it to forget versions.
 */
const STATE = 0x73; // 's'
const PRUNE = 0x70; // 'p'
const META = 0x6d; // 'm'
const LIVE = 1;
const DELETED = 0;

/** Point reads of the latest version kept in memory (latestValues.ts): accounts, parameters, balances. */
export const KEPT_VALUES = 50_000;

const LATEST_KEY = concatBytes(Uint8Array.of(META), new TextEncoder().encode("latest-version"));
const EARLIEST_KEY = concatBytes(Uint8Array.of(META), new TextEncoder().encode("earliest-version"));
const FAST_INDEX_KEY = concatBytes(Uint8Array.of(META), new TextEncoder().encode("fast-index"));
/** The first version whose change log is complete (the log of new keys came later than the prune log): revert goes no lower. */
const CHANGE_LOG_KEY = concatBytes(Uint8Array.of(META), new TextEncoder().encode("change-log-from"));

export type BatchOp = { type: "put"; key: Uint8Array; value: Uint8Array } | { type: "del"; key: Uint8Array };

/** A copy of the latest state kept elsewhere (latestReplica.ts): given every batch that moved the latest version, right after LevelDB wrote it. */
export interface LatestMirror {
  /** Synchronous: when commit() or revert() returns, the copy is at `version`. */
  apply(version: number, ops: ReadonlyArray<BatchOp>): void;
}

export interface StateReader {
  readonly version: number;
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Live entries whose key starts with `prefix`, in key order, from `start` (a full key) on. */
  iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]>;
  /**
   * What iterate() gives, or its first `max` entries, when they are in memory
   * (kept reads), with keys relative to `prefix`; undefined otherwise.
   */
  keptUnder(prefix: Uint8Array, start?: Uint8Array, max?: number): Array<[Uint8Array, Uint8Array]> | undefined;
}

/** A change of unversioned chain data: `value` written, or the key deleted when absent. */
export interface MetaEdit {
  key: Uint8Array;
  value?: Uint8Array;
}

/** A state under the store's own (a fork's remote state): what the store has not written is read from it. */
export interface StateUnderlay {
  over(reader: StateReader): StateReader;
  /** Called with each batch before it is written: the underlay may add writes of its own (the deletions it must remember). */
  beforeCommit(batch: StateBatch): void;
}

/**
 * LevelDB's block cache (uncompressed blocks; classic-level's default is 8 MiB). State reads at the
 * latest and the kept earlier heights are answered by this store's own kept reads (latestScans,
 * latestValues, earlierScans); what reaches LevelDB is their misses, blocks and the tx index, so a
 * small cache serves them: a larger one fills slowly under load, growing the native memory long
 * after the start, and its churn fragments the allocator's heaps. See docs/design/memory-bounds.md.
 */
const LEVELDB_BLOCK_CACHE_BYTES = 2 * 2 ** 20;

/** Reads of the state and how many kept reads answered, for the metrics (a miss went to LevelDB). */
export interface KeptReadCounts {
  pointReads: number;
  pointMisses: number;
  scans: number;
  scanMisses: number;
}

export class VersionedStore {
  readonly keptReads: KeptReadCounts = { pointReads: 0, pointMisses: 0, scans: 0, scanMisses: 0 };
  /** True while a commit's batch is being written: the fast index may then hold either version. */
  private committing = false;
  private readonly latestScans: LatestScans;
  private readonly latestValues = new LatestValues(KEPT_VALUES);
  private readonly earlierScans: EarlierScans;
  /** Test hook (failWritesForTest): the error every batch write fails with, as LevelDB's would on a full disk. */
  private writeFault: Error | undefined;
  /**
   * The first write error since the database was opened. After a failed write
   * LevelDB's log may hold a torn record, and a write that "succeeds" after it
   * can be dropped when the log is replayed (a background error is sticky
   * too): so no write is made until reopen() has replayed the log and the
   * caller has checked what is on disk.
   */
  private brokenBy: Error | undefined;
  /** A state under this one (a fork's remote state, src/node/fork/): it wraps every reader and sees every commit's batch. */
  private underlay: StateUnderlay | undefined;
  private mirror: LatestMirror | undefined;

  private constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    private latest: number,
    private earliest: number,
    private changeLogFrom: number,
  ) {
    this.latestScans = new LatestScans(db, { gte: Uint8Array.of(FAST), lt: Uint8Array.of(FAST + 1) });
    this.earlierScans = new EarlierScans(db, { state: STATE, live: LIVE });
  }

  /** `writeBufferSize`: LevelDB's memtable (bytes; its default 4 MiB): larger for a genesis import, fewer tables to compact. */
  static async open(dir: string, options: { writeBufferSize?: number } = {}): Promise<VersionedStore> {
    const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: "view", valueEncoding: "view", cacheSize: LEVELDB_BLOCK_CACHE_BYTES, ...options });
    await openOrSayWhy(db, dir);
    const latest = await readNumber(db, LATEST_KEY);
    const earliest = await readNumber(db, EARLIEST_KEY);
    // A store written before the fast index existed gets it built once (as IAVL upgrades to fast storage).
    if (!(await db.get(FAST_INDEX_KEY))) {
      await buildFastIndex(db, STATE, LIVE);
      await db.put(FAST_INDEX_KEY, Uint8Array.of(1));
    }
    // A store written before the change log logged new keys can revert only to versions from here on.
    if (!(await db.get(CHANGE_LOG_KEY))) await db.put(CHANGE_LOG_KEY, uint64Bytes(latest));
    return new VersionedStore(db, latest, earliest, await readNumber(db, CHANGE_LOG_KEY));
  }

  /** Bytes and keys the kept reads hold in memory. */
  keptSize(): { scanBytes: number; values: number } {
    return { scanBytes: this.latestScans.heldBytes + this.earlierScans.heldBytes, values: this.latestValues.size };
  }

  /** LevelDB's own estimate of the native memory it holds (its write buffers and block cache), in bytes; 0 once closed. */
  levelDbMemoryBytes(): number {
    return this.db.status === "open" ? Number(this.db.getProperty("leveldb.approximate-memory-usage")) : 0;
  }

  /** The last committed version (0 before the first commit). */
  get latestVersion(): number {
    return this.latest;
  }

  /** The oldest version that can still be read. */
  get earliestVersion(): number {
    return this.earliest;
  }

  /**
   * A view of `version`. With `keepsReads` (queries), a scan at the latest
   * version that LevelDB must answer keeps its neighbourhood in memory for the
   * scans that follow (latestScans.ts), and commits update what is kept;
   * block execution reads without (a fill reads up to a thousand entries
   * ahead of a scan's first, which block execution scans once per block).
   */
  reader(version: number = this.latest, options: { keepsReads?: boolean } = {}): StateReader {
    if (version > this.latest || (this.latest > 0 && version < this.earliest)) {
      throw new RangeError(`version ${version} is not kept (kept: ${this.earliest}..${this.latest})`);
    }
    const reader = new VersionReader(
      this.db,
      version,
      () => this.fastIndexServes(version),
      this.latestScans,
      this.latestValues,
      this.earlierScans,
      options.keepsReads ?? false,
      this.keptReads,
    );
    return this.underlay ? this.underlay.over(reader) : reader;
  }

  /** From now on every commit and revert is also applied to `mirror`, before the store's latest version moves. */
  setMirror(mirror: LatestMirror | undefined): void {
    this.mirror = mirror;
  }

  /** The latest version's live entries, in key order (the fast index), for a mirror's first copy. */
  async *latestEntries(): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const { lower, upper } = fastRange(new Uint8Array(0));
    for await (const [rawKey, entry] of this.db.iterator({ gte: lower, lt: upper })) yield [rawKey.subarray(1), fastEntryValue(entry)];
  }

  /** Puts a state under this one: from now on every reader reads through it. */
  setUnderlay(underlay: StateUnderlay): void {
    this.underlay = underlay;
  }

  /** Whether the fast index holds exactly the state of `version` now (a synchronous LevelDB read sees this state). */
  private fastIndexServes(version: number): boolean {
    return version === this.latest && !this.committing;
  }

  /** Starts the next version; nothing is visible until commit() writes it in one atomic batch. */
  begin(): StateBatch {
    return new StateBatch(this.db, this.latest + 1, this.latest === 0);
  }

  /** The first version of an empty store at `version` rather than 1 (a fork's, which starts at the forked height). */
  beginAt(version: number): StateBatch {
    if (this.latest !== 0 || version < 1) throw new Error(`beginAt(${version}) of a store at version ${this.latest}`);
    return new StateBatch(this.db, version, true);
  }

  async commit(batch: StateBatch): Promise<void> {
    if (batch.version !== this.latest + 1) throw new Error(`commit of version ${batch.version} after ${this.latest}`);
    this.underlay?.beforeCommit(batch);
    const ops = await batch.operations();
    ops.push({ type: "put", key: LATEST_KEY, value: uint64Bytes(batch.version) });
    if (this.earliest === 0) ops.push({ type: "put", key: EARLIEST_KEY, value: uint64Bytes(batch.version) });
    this.committing = true;
    try {
      await this.writeBatch(ops);
      this.mirror?.apply(batch.version, ops);
      this.latest = batch.version;
      this.latestScans.advance(batch.version, ops);
      this.latestValues.advance(batch.version, ops);
      if (this.earliest === 0) this.earliest = batch.version;
    } finally {
      this.committing = false;
    }
  }

  /**
   * Commits the first version (a genesis import) in LevelDB writes of `chunk` entries each, so
   * that the event loop runs between them (progress lines) and the operations of millions of
   * keys are never all in memory at once. The latest version is written last: an import cut
   * short leaves a store at version 0, which the next start empties (clear) and imports again.
   */
  async commitFirst(batch: StateBatch, onWritten: (entries: number) => void = () => undefined, chunk = FIRST_COMMIT_CHUNK): Promise<void> {
    if (this.latest !== 0 || !batch.fresh) throw new Error(`commitFirst of version ${batch.version} after ${this.latest}`);
    const first = batch.version;
    this.underlay?.beforeCommit(batch); // a fork's first version may delete remote keys (--fork-validator)
    // One write in flight while the next chunk is made: LevelDB writes on libuv's threads. A
    // chained batch, not batch(ops): its put() copies the key and value into the native batch at
    // once (so the slabs may be reused, and no op outlives its put), where batch(ops) reads each
    // op's properties by name on the native side, which costs more than the copy.
    let writing: Promise<void> | undefined;
    let written = 0;
    let chained = this.db.batch();
    for (const entries of batch.freshEntries(chunk, (key, value) => chained.put(key, value), true)) {
      await writing;
      onWritten(written);
      writing = chained.write();
      chained = this.db.batch();
      written = entries;
    }
    await chained.close();
    await writing;
    onWritten(written);
    await this.db.batch([
      { type: "put", key: LATEST_KEY, value: uint64Bytes(first) },
      { type: "put", key: EARLIEST_KEY, value: uint64Bytes(first) },
    ]);
    this.latest = first;
    this.earliest = first;
    this.latestScans.retire(first);
    this.latestValues.retire(first);
  }

  /** Empties a store that never committed (an import cut short), keeping its fast-index mark. */
  async clear(): Promise<void> {
    if (this.latest !== 0) throw new Error(`clear of a store at version ${this.latest}`);
    await this.db.clear();
    await this.db.put(FAST_INDEX_KEY, Uint8Array.of(1));
    await this.db.put(CHANGE_LOG_KEY, uint64Bytes(0));
  }

  /** Drops what only heights below `earliest` could read. */
  async prune(earliest: number): Promise<void> {
    if (earliest <= this.earliest) return;
    earliest = Math.min(earliest, this.latest);
    const ops: Array<{ type: "del" | "put"; key: Uint8Array; value?: Uint8Array }> = [];
    // A prune-log entry at height y says: version x of key k was superseded at y.
    // Once y is the earliest kept height or older, nothing reads version x any more.
    const end = concatBytes(Uint8Array.of(PRUNE), uint64Bytes(earliest + 1));
    for await (const [logKey, logValue] of this.db.iterator({ gte: Uint8Array.of(PRUNE), lt: end })) {
      ops.push({ type: "del", key: logKey });
      if (logValue.length > 0) ops.push({ type: "del", key: logValue });
    }
    ops.push({ type: "put", key: EARLIEST_KEY, value: uint64Bytes(earliest) });
    await this.writeBatch(ops as BatchOp[]);
    this.earliest = earliest;
    this.earlierScans.prune(earliest);
  }

  /** The lowest version revert() can go back to. */
  get revertableFrom(): number {
    return Math.max(this.earliest, this.changeLogFrom);
  }

  /**
   * Forgets every version above `target` in one atomic batch, with `metaOps`
   * (the chain data of the forgotten heights: deleted, or a count written back):
   * their state entries and change-log entries go, and the fast index gets
   * back each written key's value at `target`. Costs the writes of the
   * forgotten versions, not the size of the state. `target` becomes the
   * latest version, and the next commit writes `target + 1` again.
   */
  async revert(target: number, metaOps: ReadonlyArray<MetaEdit> = []): Promise<void> {
    if (target > this.latest || target < this.revertableFrom) {
      throw new RangeError(`cannot revert to version ${target}: this store can go back to versions ${this.revertableFrom} to ${this.latest}`);
    }
    const ops: BatchOp[] = [];
    /** Each written key's change-log value at its lowest forgotten version: what it had at `target`. */
    const priors = new Map<string, { key: Uint8Array; prior: Uint8Array }>();
    const from = concatBytes(Uint8Array.of(PRUNE), uint64Bytes(target + 1));
    for await (const [logKey, prior] of this.db.iterator({ gte: from, lt: Uint8Array.of(PRUNE + 1) })) {
      const version = Number(new DataView(logKey.buffer, logKey.byteOffset + 1, 8).getBigUint64(0));
      const key = unescapeKey(logKey.subarray(9, logKey.length - 2));
      ops.push({ type: "del", key: logKey }, { type: "del", key: concatBytes(Uint8Array.of(STATE), encodeVersioned(key, version)) });
      const id = Buffer.from(key).toString("latin1");
      if (!priors.has(id)) priors.set(id, { key, prior });
    }
    const entries = [...priors.values()];
    const values = await this.db.getMany(entries.map((e) => e.prior).filter((p) => p.length > 0));
    let next = 0;
    for (const { key, prior } of entries) {
      const value = prior.length > 0 ? values[next++] : undefined;
      if (value && value[0] === LIVE)
        ops.push({ type: "put", key: fastKey(key), value: fastValue(decodeVersioned(prior.subarray(1)).version, value.subarray(1)) });
      else ops.push({ type: "del", key: fastKey(key) });
    }
    for (const { key, value } of metaOps) {
      const metaKey = concatBytes(Uint8Array.of(META), key);
      ops.push(value ? { type: "put", key: metaKey, value } : { type: "del", key: metaKey });
    }
    ops.push({ type: "put", key: LATEST_KEY, value: uint64Bytes(target) });
    this.committing = true;
    try {
      await this.writeBatch(ops);
      this.mirror?.apply(target, ops);
      this.latest = target;
    } finally {
      this.committing = false;
      this.latestScans.retire(this.latest);
      this.latestValues.retire(this.latest);
      this.earlierScans.forgetAbove(this.latest);
    }
  }

  private writeBatch(ops: BatchOp[]): Promise<void> {
    return this.checkedWrite(() => this.db.batch(ops));
  }

  /** Every write of the running store goes through here: the first failure stops all writes until reopen(). */
  private async checkedWrite(write: () => Promise<void>): Promise<void> {
    if (this.brokenBy) throw this.brokenBy;
    try {
      if (this.writeFault) throw this.writeFault;
      await write();
    } catch (err) {
      this.brokenBy = err instanceof Error ? err : new Error(String(err));
      throw err;
    }
  }

  /** Whether a write failed since the database was opened: no write succeeds until reopen(). */
  get needsReopen(): boolean {
    return this.brokenBy !== undefined;
  }

  /**
   * Closes and opens the database again, so LevelDB replays its log (dropping a
   * torn record) into fresh files and forgets a sticky background error; gives
   * the latest version the disk holds, which the caller compares with the
   * version it acknowledged. Throws (and stays broken) when the open fails.
   */
  async reopen(): Promise<number> {
    if (this.db.status === "open") await this.db.close();
    await this.db.open();
    const onDisk = await readNumber(this.db, LATEST_KEY);
    this.brokenBy = undefined;
    return onDisk;
  }

  /** Only for tests (no setting, route or command reaches it): makes batch writes fail with `error` until called with undefined. */
  failWritesForTest(error: Error | undefined): void {
    this.writeFault = error;
  }

  /** Unversioned chain data (blocks, tx index, ...): raw keys under the meta namespace. */
  async getMeta(key: Uint8Array): Promise<Uint8Array | undefined> {
    return (await this.db.get(concatBytes(Uint8Array.of(META), key))) ?? undefined;
  }

  /** Several metadata entries in one read (one trip to LevelDB's threads instead of one each). */
  async getMetaMany(keys: Uint8Array[]): Promise<Array<Uint8Array | undefined>> {
    if (keys.length === 0) return [];
    return (await this.db.getMany(keys.map((key) => concatBytes(Uint8Array.of(META), key)))).map((value) => value ?? undefined);
  }

  /** Writes one metadata entry at once, outside a commit (what a commit's batch.putMeta writes with the commit). */
  putMeta(key: Uint8Array, value: Uint8Array): Promise<void> {
    return this.checkedWrite(() => this.db.put(concatBytes(Uint8Array.of(META), key), value));
  }

  /** Writes unversioned chain data on its own, outside any version (an index built again). */
  putMetaEntries(entries: ReadonlyArray<{ key: Uint8Array; value: Uint8Array }>): Promise<void> {
    return this.checkedWrite(() =>
      this.db.batch(entries.map(({ key, value }) => ({ type: "put" as const, key: concatBytes(Uint8Array.of(META), key), value }))),
    );
  }

  /** Keys under `prefix`; `gte` (a key under the prefix) starts the range further in. */
  async *iterateMeta(prefix: Uint8Array, options: { reverse?: boolean; limit?: number; gte?: Uint8Array } = {}): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const full = concatBytes(Uint8Array.of(META), prefix);
    const upper = prefixEnd(full);
    const lower = options.gte ? concatBytes(Uint8Array.of(META), options.gte) : full;
    const range = upper ? { gte: lower, lt: upper } : { gte: lower };
    for await (const [key, value] of this.db.iterator({ ...range, reverse: options.reverse, limit: options.limit ?? -1 })) {
      yield [key.subarray(1), value];
    }
  }

  async close(): Promise<void> {
    this.latestScans.retire(Number.MAX_SAFE_INTEGER);
    this.latestValues.retire(Number.MAX_SAFE_INTEGER);
    await this.db.close();
  }
}

/** LevelDB entries of one write of a genesis import's commit (commitFirst). */
export const FIRST_COMMIT_CHUNK = 40_000;

export class StateBatch {
  private readonly writes = new Map<string, { key: Uint8Array; value: Uint8Array | undefined }>();
  private readonly meta: Array<{ key: Uint8Array; value: Uint8Array }> = [];
  private sortedFresh = PackedWrites.of([]);

  constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    readonly version: number,
    readonly fresh: boolean,
  ) {}

  set(key: Uint8Array, value: Uint8Array): void {
    this.writes.set(Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("hex"), { key, value });
  }

  delete(key: Uint8Array): void {
    this.writes.set(Buffer.from(key).toString("hex"), { key, value: undefined });
  }

  /** The value this batch will write for `key`: a Uint8Array, null when deleted, undefined when untouched. */
  pending(key: Uint8Array): Uint8Array | null | undefined {
    const write = this.writes.get(Buffer.from(key).toString("hex"));
    if (!write) return undefined;
    return write.value ?? null;
  }

  /** The keys this batch deletes. */
  deletedKeys(): Uint8Array[] {
    return [...this.writes.values()].filter((w) => w.value === undefined).map((w) => w.key);
  }

  putMeta(key: Uint8Array, value: Uint8Array): void {
    this.meta.push({ key: concatBytes(Uint8Array.of(META), key), value });
  }

  /**
   * Adds a first version's writes that are in key order already (the genesis import's), kept as they are rather than copied into the batch's map of writes. Only
   * freshEntries() writes them.
   */
  setSortedFresh(writes: PackedWrites): void {
    if (!this.fresh || this.sortedFresh.length > 0) throw new Error("setSortedFresh on a batch over earlier versions, or twice");
    this.sortedFresh = writes;
  }

  /**
   * The LevelDB entries of a first version, each handed to `put` as it is made, and after each
   * `chunk` of them a yield of how many; the metadata with the last. All versioned entries
   * first, then all fast-index entries: each in key order when the writes are, so that
   * LevelDB's tables do not overlap and its compaction moves them rather than rewriting them.
   * No array of them is kept: what a put copies (a chained batch) dies at once, young.
   * `reuseBuffers`: the bytes handed out are valid only until the next yield.
   */
  *freshEntries(chunk: number, put: (key: Uint8Array, value: Uint8Array) => void, reuseBuffers = false): Generator<number> {
    if (!this.fresh) throw new Error("freshEntries of a batch over earlier versions");
    let entries = 0;
    // the same bytes as operations() writes, copied from the packed writes without a buffer of their own per part
    const slab = new ByteSlab();
    const deleted = Uint8Array.of(DELETED);
    const lists = [this.sortedFresh, PackedWrites.of(this.writes.values())];
    for (const writes of lists) {
      const { arena } = writes;
      for (let i = 0; i < writes.length; i++) {
        const keyAt = writes.keyAt(i);
        const [keys, k, keyLength] = [arena.bufferOf(keyAt), arena.offsetOf(keyAt), writes.keyLength(i)];
        const stateKey = slab
          .take(keyLength + zerosIn(keys, k, keyLength) + 11)
          .byte(STATE)
          .escapedCopy(keys, k, keyLength)
          .byte(0)
          .byte(0)
          .uint64(this.version, true).bytes;
        const valueAt = writes.valueAt(i);
        const valueLength = writes.valueLength(i);
        const value =
          valueLength === DELETED_LENGTH
            ? deleted
            : slab
                .take(valueLength + 1)
                .byte(LIVE)
                .copy(arena.bufferOf(valueAt), arena.offsetOf(valueAt), valueLength).bytes;
        put(stateKey, value);
        if (++entries === chunk) {
          yield entries;
          entries = 0;
          if (reuseBuffers) slab.reuse();
        }
      }
    }
    for (const writes of lists) {
      const { arena } = writes;
      for (let i = 0; i < writes.length; i++) {
        const valueLength = writes.valueLength(i);
        if (valueLength === DELETED_LENGTH) continue;
        const keyAt = writes.keyAt(i);
        const keyLength = writes.keyLength(i);
        const indexKey = slab
          .take(keyLength + 1)
          .byte(FAST)
          .copy(arena.bufferOf(keyAt), arena.offsetOf(keyAt), keyLength).bytes;
        const valueAt = writes.valueAt(i);
        const value = slab
          .take(valueLength + 8)
          .uint64(this.version)
          .copy(arena.bufferOf(valueAt), arena.offsetOf(valueAt), valueLength).bytes;
        put(indexKey, value);
        if (++entries === chunk) {
          yield entries;
          entries = 0;
          if (reuseBuffers) slab.reuse();
        }
      }
    }
    for (const m of this.meta) put(m.key, m.value);
    yield entries + this.meta.length;
  }

  async operations(): Promise<BatchOp[]> {
    const ops: BatchOp[] = [];
    const writes = [...this.writes.values()];
    // The version each written key had before this batch: the fast index knows it for
    // live keys (one read for all); a key that is new or was deleted is looked up in the versions.
    const latestEntries = this.fresh ? [] : await this.db.getMany(writes.map((w) => fastKey(w.key)));
    for (const [i, { key, value }] of writes.entries()) {
      const stateKey = concatBytes(Uint8Array.of(STATE), encodeVersioned(key, this.version));
      ops.push({ type: "put", key: stateKey, value: value ? concatBytes(Uint8Array.of(LIVE), value) : Uint8Array.of(DELETED) });
      ops.push(value ? { type: "put", key: fastKey(key), value: fastValue(this.version, value) } : { type: "del", key: fastKey(key) });
      if (this.fresh) continue;
      const entry = latestEntries[i];
      const prior = entry ? fastEntryVersion(entry) : await newestVersion(this.db, key, this.version - 1);
      const logKey = concatBytes(Uint8Array.of(PRUNE), uint64Bytes(this.version), escapeKey(key), Uint8Array.of(0, 0));
      ops.push({ type: "put", key: logKey, value: prior === undefined ? new Uint8Array(0) : concatBytes(Uint8Array.of(STATE), encodeVersioned(key, prior)) });
    }
    for (const m of this.meta) ops.push({ type: "put", ...m });
    return ops;
  }
}

class VersionReader implements StateReader {
  constructor(
    private readonly db: ClassicLevel<Uint8Array, Uint8Array>,
    readonly version: number,
    /** Asked right before each LevelDB call, which reads the state of that moment. */
    private readonly fastIndexServes: () => boolean,
    private readonly latestScans: LatestScans,
    private readonly latestValues: LatestValues,
    private readonly earlierScans: EarlierScans,
    private readonly keepsReads: boolean,
    private readonly counts: KeptReadCounts,
  ) {}

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.counts.pointReads++;
    if (this.fastIndexServes()) {
      return this.latestValues.get(this.version, key, () => {
        this.counts.pointMisses++;
        const entry = this.db.getSync(fastKey(key));
        return entry ? fastEntryValue(entry) : undefined;
      });
    }
    const kept = this.earlierScans.kept(this.version, key, concatBytes(key, Uint8Array.of(0)));
    if (kept) return kept[0]?.[1];
    this.counts.pointMisses++;
    const seek = concatBytes(Uint8Array.of(STATE), encodeVersioned(key, this.version));
    const groupEnd = concatBytes(Uint8Array.of(STATE), encodeVersioned(key, 0));
    for await (const [, value] of this.db.iterator({ gte: seek, lte: groupEnd, limit: 1 })) {
      return value[0] === LIVE ? value.subarray(1) : undefined;
    }
    return undefined;
  }

  iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    this.counts.scans++;
    const kept = this.keptScan(prefix, start, 0);
    if (kept) return keptEntries(kept);
    this.counts.scanMisses++;
    if (!this.fastIndexServes()) return this.earlierScans.scan(this.version, start ?? prefix, prefixEnd(prefix), this.keepsReads);
    const { lower, upper } = fastRange(prefix, start);
    return latestEntries(this.latestScans.scan(this.version, lower, upper, this.keepsReads));
  }

  keptUnder(prefix: Uint8Array, start?: Uint8Array, max?: number): Array<[Uint8Array, Uint8Array]> | undefined {
    const kept = this.keptScan(prefix, start, prefix.length, max);
    if (kept) this.counts.scans++; // a miss is counted by the iterate() that follows
    return kept;
  }

  /**
   * A prefix scan's entries (or its first `max`) when kept reads hold them, `cut`
   * bytes dropped from their keys: the latest version's (fast-index keys and entries
   * carry a namespace byte and a version more), else this version's as an earlier one.
   */
  private keptScan(prefix: Uint8Array, start: Uint8Array | undefined, cut: number, max?: number): Array<[Uint8Array, Uint8Array]> | undefined {
    const { lower, upper } = fastRange(prefix, start);
    const latest = this.latestScans.kept(this.version, lower, upper, { key: 1 + cut, value: FAST_VALUE_HEADER }, max);
    if (latest) return latest;
    const end = prefixEnd(prefix);
    return end && this.earlierScans.kept(this.version, start ?? prefix, end, cut, max);
  }
}

/** The fast index's keys of a scan: from `start` (or the prefix) to the end of the prefix. */
function fastRange(prefix: Uint8Array, start?: Uint8Array): { lower: Uint8Array; upper: Uint8Array } {
  return { lower: fastKey(start ?? prefix), upper: prefixEnd(fastKey(prefix)) ?? Uint8Array.of(FAST + 1) };
}

/** Entries kept in memory (latestScans.ts), as iterate() gives the others. */
async function* keptEntries(entries: Array<[Uint8Array, Uint8Array]>): AsyncGenerator<[Uint8Array, Uint8Array]> {
  yield* entries;
}

async function* latestEntries(entries: AsyncIterable<[Uint8Array, Uint8Array]>): AsyncGenerator<[Uint8Array, Uint8Array]> {
  for await (const [rawKey, entry] of entries) yield [rawKey.subarray(1), fastEntryValue(entry)];
}

async function newestVersion(db: ClassicLevel<Uint8Array, Uint8Array>, key: Uint8Array, atOrBelow: number): Promise<number | undefined> {
  const seek = concatBytes(Uint8Array.of(STATE), encodeVersioned(key, atOrBelow));
  const groupEnd = concatBytes(Uint8Array.of(STATE), encodeVersioned(key, 0));
  for await (const rawKey of db.keys({ gte: seek, lte: groupEnd, limit: 1 })) {
    return decodeVersioned(rawKey.subarray(1)).version;
  }
  return undefined;
}

async function readNumber(db: ClassicLevel<Uint8Array, Uint8Array>, key: Uint8Array): Promise<number> {
  const value = await db.get(key);
  return value ? Number(new DataView(value.buffer, value.byteOffset, 8).getBigUint64(0)) : 0;
}

/** A store another opener holds (LevelDB has one opener per store). */
export class StoreLockedError extends Error {}

/** Opens the store; a store another process holds is named as such. */
async function openOrSayWhy(db: ClassicLevel<Uint8Array, Uint8Array>, dir: string): Promise<void> {
  try {
    await db.open();
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== "LEVEL_LOCKED") throw err;
    throw new StoreLockedError(`the store ${dir} is open in another process (a chain-rest start on the same --home still running?): stop it first`, {
      cause: err,
    });
  }
}
