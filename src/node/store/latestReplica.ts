import fs from "node:fs";
import { open, type Database, type RootDatabase, type Transaction } from "lmdb";
import { FAST, FAST_VALUE_HEADER, fastKey } from "./fastIndex.js";
import { prefixEnd, uint64Bytes } from "./keyEncoding.js";
import { KeptReplicaSnapshot, ReplicaGeneration, ReplicaMoved } from "./replicaReads.js";
import { ReplicaStamp } from "./replicaStamp.js";
import type { BatchOp, LatestMirror, StateReader, VersionedStore } from "./versionedStore.js";
import { processLogger } from "../../telemetry/processLogger.js";

/**
 * A copy of the latest state in LMDB, for REST workers (api.workers > 1) to
 * read themselves: LMDB lets many processes read one environment at once, each
 * read a synchronous lookup in a shared memory map, where LevelDB has one
 * opener (the node's process) and every read of another process is a round
 * trip to it. The node's store stays LevelDB; this copy is derived from it
 * (made again at each start, never synced to disk for durability).
 *
 *   'f' userKey → value   (the fast index's keys, without its version header)
 *   'h'         → the version these entries are (8 bytes, big-endian); absent: not usable
 *   's'         → the sequence of this write of the copy (8 bytes, big-endian; replicaStamp.ts)
 *
 * The node writes each commit's (and revert's) changes and the new version in
 * one LMDB transaction, right after LevelDB's batch and before the node tells
 * anyone of the height: a reader's transaction sees one version whole, and
 * never one older than a commit anyone could have heard of. Then it writes the
 * write's sequence to the stamp file (replicaStamp.ts), still before it tells
 * anyone: a worker whose kept reads (replicaReads.ts) are of that sequence
 * answers from them without a read transaction.
 */
const VERSION_KEY = Uint8Array.of(0x68); // 'h'
const SEQUENCE_KEY = Uint8Array.of(0x73); // 's'
const COPY_CHUNK = 10_000;
/** Address space of the map (virtual, not memory): a larger state stops the copy (workers then ask the node). */
const MAP_BYTES = 64 * 1024 ** 3;
/** LMDB's reader slots (126 by default): each process holds one per read transaction alive, and api.workers goes up to 256. */
const MAX_READERS = 1024;
const OPTIONS = { encoding: "binary", keyEncoding: "binary", mapSize: MAP_BYTES, maxReaders: MAX_READERS, cache: false } as const;

type Db = RootDatabase<Uint8Array, Uint8Array>;

/** The node's side: fills the copy, then keeps it at the store's latest version. */
export class LatestReplica implements LatestMirror {
  private broken = false;
  /** The sequence of the last write (0: none yet). */
  private sequence = 0;

  private constructor(
    private readonly db: Db,
    private readonly store: VersionedStore,
    private readonly stamp: ReplicaStamp,
  ) {}

  /** A new copy of the store's latest state in `dir` (what was there is removed), kept current from now on. */
  static async create(dir: string, store: VersionedStore): Promise<LatestReplica> {
    fs.rmSync(dir, { recursive: true, force: true });
    const db: Db = open({ path: dir, ...OPTIONS, noSync: true });
    const replica = new LatestReplica(db, store, ReplicaStamp.create(dir));
    const version = store.latestVersion;
    let chunk: Array<[Uint8Array, Uint8Array]> = [];
    const flush = () =>
      replica.write(() => {
        for (const [key, value] of chunk) db.putSync(fastKey(key), value);
      });
    for await (const entry of store.latestEntries()) {
      chunk.push(entry);
      if (chunk.length >= COPY_CHUNK) {
        flush();
        chunk = [];
      }
    }
    flush();
    replica.write(() => replica.putVersion(version));
    store.setMirror(replica); // nothing commits between the copy and here: the node's RPC and REST are not yet listening
    return replica;
  }

  /** Whether workers can read it (a write that failed, e.g. a key longer than LMDB's 1,978 bytes, leaves it unusable). */
  get usable(): boolean {
    return !this.broken;
  }

  apply(version: number, ops: ReadonlyArray<BatchOp>): void {
    this.write(() => {
      for (const op of ops) {
        if (op.key[0] !== FAST) continue;
        if (op.type === "put") this.db.putSync(op.key, op.value.subarray(FAST_VALUE_HEADER));
        else this.db.removeSync(op.key);
      }
      this.putVersion(version);
    });
  }

  async close(): Promise<void> {
    this.store.setMirror(undefined);
    this.stamp.close();
    await this.db.close();
  }

  /** The version of the entries and the next sequence after the copy's (not a count of this process's: each write has its own), in the write's transaction. */
  private putVersion(version: number): void {
    const stored = this.db.get(SEQUENCE_KEY);
    this.sequence = (stored ? readUint64(stored) : this.sequence) + 1;
    this.db.putSync(VERSION_KEY, uint64Bytes(version));
    this.db.putSync(SEQUENCE_KEY, uint64Bytes(this.sequence));
  }

  /**
   * One LMDB transaction, then its sequence in the stamp; if it fails, the version is
   * removed (readers then go to the node), the stamp moves on (no worker's kept reads
   * are of it) and nothing more is written.
   */
  private write(action: () => void): void {
    if (this.broken) return;
    try {
      this.db.transactionSync(action);
    } catch (err) {
      this.broken = true;
      this.db.transactionSync(() => this.db.removeSync(VERSION_KEY));
      processLogger().error({ err }, "[node] the workers' copy of the state could not be written; they read through the node from now on");
    }
    this.stamp.write(this.broken ? ++this.sequence : this.sequence);
  }
}

/** A state of the copy for one query: its version, and done() when its reads are over. */
export type ReplicaState = StateReader & { done(): void };

/**
 * A reader process's side (a REST worker): the copy opened read-only, and the
 * reads of its latest write kept in memory (replicaReads.ts) while the stamp
 * (replicaStamp.ts) says that write is still the latest.
 */
export class ReplicaView {
  private kept: ReplicaGeneration | undefined;
  /** Read transactions begun (a query answered from kept reads begins none). */
  transactions = 0;

  private constructor(
    private readonly db: Db,
    private readonly stamp: ReplicaStamp | undefined,
  ) {}

  static open(dir: string): ReplicaView {
    const db: Db = open({ path: dir, ...OPTIONS, readOnly: true });
    return new ReplicaView(db, ReplicaStamp.open(dir));
  }

  /**
   * The latest state as of now (call done() when the reads are over); undefined
   * when the copy is not usable. Over the kept reads while the stamp still names
   * their write; else over a fresh read transaction, whose write's reads are kept
   * from then on when the stamp names it (a write newer than the stamp is read
   * by this query alone).
   */
  snapshot(): ReplicaState | undefined {
    const sequence = this.stamp?.read();
    const kept = this.kept;
    if (kept && sequence === kept.sequence) return new KeptReplicaSnapshot(this.db, kept, (at) => this.transactionAt(at));
    const state = this.plainSnapshot();
    if (!state || state.sequence !== sequence) return state;
    this.kept = new ReplicaGeneration(state.sequence, state.version);
    return new KeptReplicaSnapshot(this.db, this.kept, (at) => this.transactionAt(at), state.transaction);
  }

  /** The latest state in one read transaction, nothing kept; undefined when the copy is not usable. */
  private plainSnapshot(): ReplicaSnapshot | undefined {
    const transaction = this.freshTransaction();
    const version = this.db.get(VERSION_KEY, { transaction });
    if (!version) {
      transaction.done();
      return undefined;
    }
    const sequence = this.db.get(SEQUENCE_KEY, { transaction });
    return new ReplicaSnapshot(this.db, transaction, readUint64(version), sequence ? readUint64(sequence) : 0);
  }

  close(): Promise<void> {
    this.stamp?.close();
    return this.db.close();
  }

  /** A read transaction of the write `sequence`: ReplicaMoved when the copy is at another by now. */
  private transactionAt(sequence: number): Transaction {
    const transaction = this.freshTransaction();
    const at = this.db.get(SEQUENCE_KEY, { transaction });
    if (!at || readUint64(at) !== sequence) {
      transaction.done();
      throw new ReplicaMoved();
    }
    return transaction;
  }

  private freshTransaction(): Transaction {
    // lmdb-js keeps a read transaction current until its next timer (setTimeout 0): a query in
    // that window would read the version of an earlier query, older than a commit a client may
    // already know of. Each read of the copy starts a fresh one.
    this.db.resetReadTxn();
    this.transactions++;
    return this.db.useReadTransaction();
  }
}

function readUint64(bytes: Uint8Array): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0));
}

/** One version of the copy, read in one LMDB read transaction. */
export class ReplicaSnapshot implements StateReader {
  constructor(
    private readonly db: Database<Uint8Array, Uint8Array>,
    readonly transaction: Transaction,
    readonly version: number,
    /** The write of the copy this is (replicaStamp.ts). */
    readonly sequence: number,
  ) {}

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.db.get(fastKey(key), { transaction: this.transaction }));
  }

  async *iterate(prefix: Uint8Array, start?: Uint8Array): AsyncGenerator<[Uint8Array, Uint8Array]> {
    const end = prefixEnd(fastKey(prefix)) ?? Uint8Array.of(FAST + 1);
    for (const { key, value } of this.db.getRange({ start: fastKey(start ?? prefix), end, transaction: this.transaction })) {
      yield [key.subarray(1), value];
    }
  }

  /** Nothing is kept in memory here: handlers iterate. */
  keptUnder(): undefined {
    return undefined;
  }

  done(): void {
    this.transaction.done();
  }
}
