import { concatBytes } from "../store/keyEncoding.js";
import { utf8 } from "../store/moduleStore.js";
import type { MetaEdit, StateBatch, VersionedStore } from "../store/versionedStore.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { CommittedHeight, RpcBlock, RpcTxResult } from "./blockStore.js";
import { indexedPairs, indexOccurrences, position, readPosition, unindexOccurrences, type MetaWriter } from "./eventIndex.js";
import { getBlock, getBlockResults, getBlocksAndResults } from "./blockStore.js";

/** A committed transaction as the `tx` RPC method returns it. */
export interface IndexedTx {
  hash: string;
  height: string;
  index: number;
  tx_result: RpcTxResult;
  /** base64 of the tx bytes */
  tx: string;
}

const TX = utf8("tx/");
const POSITION = utf8("txpos/");
/** Written once the event index of every committed block is in the store (older stores are indexed again at start). */
const INDEX_VERSION = utf8("evindex/version");
const CURRENT_INDEX = utf8("2");

/**
 * Indexes a committed block in its own batch: each transaction by hash and by
 * position (height, index), the transactions' and the block's indexed event
 * attributes by "type.key" and value (see eventIndex.ts).
 */
export async function indexBlock(
  store: VersionedStore,
  batch: MetaWriter,
  height: number,
  record: Pick<CommittedHeight, "block" | "results">,
  hashes: readonly string[],
): Promise<void> {
  const txs = hashes.map((hash, index) => ({
    hash,
    height: String(height),
    index,
    tx_result: record.results.txs_results![index]!,
    tx: record.block.block.data.txs![index]!,
  }));
  for (const tx of txs) {
    const hashBytes = Buffer.from(tx.hash, "hex");
    batch.putMeta(concatBytes(TX, hashBytes), utf8(JSON.stringify(tx)));
    batch.putMeta(concatBytes(POSITION, position(height, tx.index)), hashBytes);
  }
  await indexOccurrences(
    store,
    batch,
    "tx",
    txs.map((tx) => ({ at: position(height, tx.index), pairs: indexedPairs(tx.tx_result.events) })),
  );
  const blockEvents = [...(record.results.begin_block_events ?? []), ...(record.results.end_block_events ?? [])];
  await indexOccurrences(store, batch, "block", [{ at: position(height, 0), pairs: indexedPairs(blockEvents) }]);
}

export async function getIndexedTx(store: VersionedStore, hash: Uint8Array): Promise<IndexedTx | undefined> {
  const bytes = await store.getMeta(concatBytes(TX, hash));
  return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as IndexedTx) : undefined;
}

/** The transaction at a position. */
export async function txAt(store: VersionedStore, at: Uint8Array): Promise<IndexedTx | undefined> {
  const hash = await store.getMeta(concatBytes(POSITION, at));
  return hash ? getIndexedTx(store, hash) : undefined;
}

/** Every transaction position with a height in [low, high], in (height, index) order. */
export async function* txPositions(store: VersionedStore, low: number, high: number): AsyncGenerator<Uint8Array> {
  for await (const [key] of store.iterateMeta(POSITION, { gte: concatBytes(POSITION, position(low, 0)) })) {
    const at = key.subarray(POSITION.length);
    if (readPosition(at).height > high) return;
    yield at;
  }
}

/** Whether the store's event index covers its blocks (false for a store written without it). */
export async function eventIndexCurrent(store: VersionedStore): Promise<boolean> {
  const version = await store.getMeta(INDEX_VERSION);
  return version !== undefined && Buffer.from(version).equals(CURRENT_INDEX);
}

export function markEventIndexCurrent(batch: StateBatch): void {
  batch.putMeta(INDEX_VERSION, CURRENT_INDEX);
}

/**
 * Indexes every committed block again, one block at a time (each block's
 * counts are read after the previous block's entries are written), then marks
 * the index current: for a store written without it.
 */
export async function indexAgain(store: VersionedStore, latest: number): Promise<void> {
  for (let height = 1; height <= latest; height++) {
    const [block, results] = await Promise.all([getBlock(store, height), getBlockResults(store, height)]);
    if (!block || !results) continue;
    const hashes = txHashes(block);
    const entries: Array<{ key: Uint8Array; value: Uint8Array }> = [];
    await indexBlock(store, { putMeta: (key, value) => entries.push({ key, value }) }, height, { block, results }, hashes);
    await store.putMetaEntries(entries);
  }
  await store.putMetaEntries([{ key: INDEX_VERSION, value: CURRENT_INDEX }]);
}

/** The hashes of a block's transactions (uppercase hex). */
function txHashes(block: RpcBlock): string[] {
  return (block.block.data.txs ?? []).map((tx) =>
    Buffer.from(sha256(Buffer.from(tx, "base64")))
      .toString("hex")
      .toUpperCase(),
  );
}

/**
 * The edits that take the blocks of heights `from` to `to` out of the indexes
 * (by hash, by position, by event attribute): what indexBlock wrote for them.
 * They must be the newest blocks (a revert forgets the heights above its target).
 */
export async function unindexBlocks(store: VersionedStore, from: number, to: number): Promise<MetaEdit[]> {
  const edits: MetaEdit[] = [];
  const txs: Array<{ at: Uint8Array; pairs: Array<[string, string]> }> = [];
  const blocks: Array<{ at: Uint8Array; pairs: Array<[string, string]> }> = [];
  for (const { height, block, results } of await getBlocksAndResults(store, from, to)) {
    if (!block || !results) continue;
    txHashes(block).forEach((hash, index) => {
      edits.push({ key: concatBytes(TX, Buffer.from(hash, "hex")) }, { key: concatBytes(POSITION, position(height, index)) });
      txs.push({ at: position(height, index), pairs: indexedPairs(results.txs_results![index]!.events) });
    });
    blocks.push({ at: position(height, 0), pairs: indexedPairs([...(results.begin_block_events ?? []), ...(results.end_block_events ?? [])]) });
  }
  edits.push(...(await unindexOccurrences(store, "tx", txs)), ...(await unindexOccurrences(store, "block", blocks)));
  return edits;
}
