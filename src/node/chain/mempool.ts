import { sha256 } from "@noble/hashes/sha2.js";
import type { DecodedTx } from "../tx/decodeTx.js";
import { hex } from "./blockStore.js";

const MAX_TX_BYTES = 1_048_576;
const CACHE_SIZE = 10_000;
/** The engine's default mempool bounds (config.toml mempool.size and max_txs_bytes). */
export const MAX_PENDING_TXS = 5000;
const MAX_PENDING_BYTES = 1_073_741_824;

/** What a transaction's inclusion in a block resolved to. */
export interface Inclusion {
  height: number;
  index: number;
}

/** A transaction waiting for a block, with its decoding by CheckTx (DeliverTx reuses it). */
export interface PendingTx {
  hash: string;
  bytes: Uint8Array;
  decoded?: DecodedTx;
}

/** Rejections before CheckTx, with the consensus engine's texts (the SDK maps them to codes 19, 20, 21). */
export class MempoolError extends Error {}

/**
 * Transactions that passed CheckTx and wait for a block, plus the engine's
 * cache of recently seen transactions (a repeat is "tx already exists in cache").
 */
export class Mempool {
  private pending: PendingTx[] = [];
  private pendingBytes = 0;
  private readonly seen = new Set<string>();
  private readonly waiters = new Map<string, Array<{ resolve: (inclusion: Inclusion) => void; reject: (error: Error) => void }>>();

  static hashOf(bytes: Uint8Array): string {
    return hex(sha256(bytes));
  }

  get size(): number {
    return this.pending.length;
  }

  /** Refuses an oversized or already seen transaction; otherwise remembers it as seen. */
  admit(bytes: Uint8Array): string {
    if (bytes.length > MAX_TX_BYTES) throw new MempoolError(`Tx too large. Max size is ${MAX_TX_BYTES}, but got ${bytes.length}`);
    if (this.pending.length >= MAX_PENDING_TXS || this.pendingBytes + bytes.length > MAX_PENDING_BYTES) {
      throw new MempoolError(
        `mempool is full: number of txs ${this.pending.length} (max: ${MAX_PENDING_TXS}), total txs bytes ${this.pendingBytes} (max: ${MAX_PENDING_BYTES})`,
      );
    }
    const hash = Mempool.hashOf(bytes);
    if (this.seen.has(hash)) throw new MempoolError("tx already exists in cache");
    this.seen.add(hash);
    if (this.seen.size > CACHE_SIZE) this.seen.delete(this.seen.values().next().value!);
    return hash;
  }

  /** A transaction that failed CheckTx may be sent again. */
  forget(hash: string): void {
    this.seen.delete(hash);
  }

  add(tx: PendingTx): void {
    this.pending.push(tx);
    this.pendingBytes += tx.bytes.length;
  }

  /** Puts back, ahead of the others, transactions taken for a block that could not be committed. */
  restore(txs: PendingTx[]): void {
    this.pending = [...txs, ...this.pending];
  }

  /**
   * The waiting transactions become `txs` (a revert): those waiting now and not
   * in `txs` are dropped, and the seen cache keeps only `txs`, so that
   * transactions of forgotten blocks may be sent again.
   */
  replace(txs: PendingTx[]): void {
    this.pending = [...txs];
    this.pendingBytes = txs.reduce((n, tx) => n + tx.bytes.length, 0);
    this.seen.clear();
    for (const tx of txs) this.seen.add(tx.hash);
  }

  /** A copy of the waiting transactions (a snapshot). */
  waiting(): PendingTx[] {
    return [...this.pending];
  }

  take(): PendingTx[] {
    const txs = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    return txs;
  }

  /** Resolves when the transaction is in a committed block. */
  waitFor(hash: string): Promise<Inclusion> {
    return new Promise((resolve, reject) => this.waiters.set(hash, [...(this.waiters.get(hash) ?? []), { resolve, reject }]));
  }

  included(hash: string, inclusion: Inclusion): void {
    for (const { resolve } of this.waiters.get(hash) ?? []) resolve(inclusion);
    this.waiters.delete(hash);
  }

  /** Every wait for inclusion ends with `error` (a block that could not be written): the transactions still wait in the pool. */
  failWaiters(error: Error): void {
    for (const waiting of this.waiters.values()) for (const { reject } of waiting) reject(error);
    this.waiters.clear();
  }
}
