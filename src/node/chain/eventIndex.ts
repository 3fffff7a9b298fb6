import { concatBytes, escapeKey, uint64Bytes, unescapeKey } from "../store/keyEncoding.js";
import { utf8 } from "../store/moduleStore.js";
import type { MetaEdit, VersionedStore } from "../store/versionedStore.js";

/** Where index entries go: a block's batch, or a list written on its own. */
export interface MetaWriter {
  putMeta(key: Uint8Array, value: Uint8Array): void;
}
import type { RpcEvent } from "./blockStore.js";

/**
 * An index of occurrences (transactions, blocks) by event attribute, written
 * in the block's own batch. Each occurrence has a position: 12 bytes that sort
 * as (height, index). Three kinds of keys, under the space's prefix:
 *
 *   e/ composite 00 00 value 00 00 position        → ""        (scans: ranges, CONTAINS, EXISTS)
 *   n/ composite 00 00 value 00 00 ordinal(8 bytes) → position  (the n-th occurrence of an exact pair)
 *   c/ composite 00 00 value                        → count     (how many occurrences the pair has)
 *
 * Composite keys and values are escaped (00 → 00 FF), so 00 00 only ever
 * separates. Ordinals follow commit order, which is position order: a page of
 * an exact-pair search is read by its ordinals, O(page), and the count is one read.
 */
export type IndexSpace = "tx" | "block";

const PREFIX: Record<IndexSpace, string> = { tx: "ev", block: "bev" };
const SEPARATOR = Uint8Array.of(0, 0);

function space(spaceName: IndexSpace, kind: "e" | "n" | "c"): Uint8Array {
  return utf8(`${PREFIX[spaceName]}${kind}/`);
}

function pairBytes(composite: string, value: string): Uint8Array {
  return concatBytes(escapeKey(utf8(composite)), SEPARATOR, escapeKey(utf8(value)));
}

/** The position of an occurrence: height (8 bytes) and index (4 bytes), big-endian. */
export function position(height: number, index: number): Uint8Array {
  const out = new Uint8Array(12);
  out.set(uint64Bytes(height), 0);
  new DataView(out.buffer).setUint32(8, index);
  return out;
}

export function readPosition(bytes: Uint8Array): { height: number; index: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { height: Number(view.getBigUint64(0)), index: view.getUint32(8) };
}

/** The indexed attributes of events as distinct [composite key, value] pairs. */
export function indexedPairs(events: readonly RpcEvent[]): Array<[string, string]> {
  const seen = new Map<string, [string, string]>();
  for (const event of events) {
    for (const attribute of event.attributes) {
      if (!attribute.index) continue;
      const pair: [string, string] = [`${event.type}.${Buffer.from(attribute.key, "base64").toString()}`, Buffer.from(attribute.value, "base64").toString()];
      seen.set(JSON.stringify(pair), pair);
    }
  }
  return [...seen.values()];
}

/** Writes the pairs of a block's occurrences (in position order) into the batch; reads the pairs' counts first. */
export async function indexOccurrences(
  store: VersionedStore,
  batch: MetaWriter,
  spaceName: IndexSpace,
  occurrences: ReadonlyArray<{ at: Uint8Array; pairs: ReadonlyArray<[string, string]> }>,
): Promise<void> {
  const counts = new Map<string, { pair: Uint8Array; count: number }>();
  for (const { pairs } of occurrences) {
    for (const [composite, value] of pairs) {
      const pair = pairBytes(composite, value);
      counts.set(Buffer.from(pair).toString("latin1"), { pair, count: 0 });
    }
  }
  // one read for all the pairs' counts: a block's events have dozens of pairs, and each read alone is a trip to LevelDB's threads
  const entries = [...counts.values()];
  const stored = await store.getMetaMany(entries.map((entry) => concatBytes(space(spaceName, "c"), entry.pair)));
  entries.forEach((entry, i) => (entry.count = countValue(stored[i])));
  for (const { at, pairs } of occurrences) {
    for (const [composite, value] of pairs) {
      const entry = counts.get(Buffer.from(pairBytes(composite, value)).toString("latin1"))!;
      batch.putMeta(concatBytes(space(spaceName, "e"), entry.pair, SEPARATOR, at), new Uint8Array(0));
      batch.putMeta(concatBytes(space(spaceName, "n"), entry.pair, SEPARATOR, uint64Bytes(entry.count)), at);
      entry.count++;
    }
  }
  for (const { pair, count } of counts.values()) batch.putMeta(concatBytes(space(spaceName, "c"), pair), uint64Bytes(count));
}

/**
 * The edits that take the last occurrences of each pair out of the index: those of
 * forgotten heights (a revert), which are the newest of every pair they have.
 */
export async function unindexOccurrences(
  store: VersionedStore,
  spaceName: IndexSpace,
  occurrences: ReadonlyArray<{ at: Uint8Array; pairs: ReadonlyArray<[string, string]> }>,
): Promise<MetaEdit[]> {
  const edits: MetaEdit[] = [];
  const occurrenceSpace = space(spaceName, "e");
  // by pair as text: most pairs recur from block to block, and their bytes are made once
  const removed = new Map<string, { pair: Uint8Array; count: number }>();
  for (const { at, pairs } of occurrences) {
    for (const [composite, value] of pairs) {
      const id = `${composite.length}:${composite}${value}`;
      let entry = removed.get(id);
      if (!entry) removed.set(id, (entry = { pair: concatBytes(pairBytes(composite, value), SEPARATOR), count: 0 }));
      entry.count++;
      edits.push({ key: concatBytes(occurrenceSpace, entry.pair, at) });
    }
  }
  const pairs = [...removed.values()];
  const countKey = (separated: Uint8Array) => concatBytes(space(spaceName, "c"), separated.subarray(0, separated.length - SEPARATOR.length));
  const totals = await store.getMetaMany(pairs.map(({ pair }) => countKey(pair)));
  for (const [i, { pair, count }] of pairs.entries()) {
    const total = countValue(totals[i]);
    const left = Math.max(0, total - count);
    for (let ordinal = left; ordinal < total; ordinal++) edits.push({ key: concatBytes(space(spaceName, "n"), pair, uint64Bytes(ordinal)) });
    edits.push(left > 0 ? { key: countKey(pair), value: uint64Bytes(left) } : { key: countKey(pair) });
  }
  return edits;
}

async function countOf(store: VersionedStore, spaceName: IndexSpace, pair: Uint8Array): Promise<number> {
  return countValue(await store.getMeta(concatBytes(space(spaceName, "c"), pair)));
}

function countValue(bytes: Uint8Array | undefined): number {
  return bytes ? Number(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0)) : 0;
}

/** How many occurrences have the exact pair. */
export function pairCount(store: VersionedStore, spaceName: IndexSpace, composite: string, value: string): Promise<number> {
  return countOf(store, spaceName, pairBytes(composite, value));
}

/** The positions of the occurrences numbered [from, to) of an exact pair (ordinals count from 0, in position order). */
export async function pairPositions(
  store: VersionedStore,
  spaceName: IndexSpace,
  composite: string,
  value: string,
  from: number,
  to: number,
): Promise<Uint8Array[]> {
  const prefix = concatBytes(space(spaceName, "n"), pairBytes(composite, value), SEPARATOR);
  const reads: Array<Promise<Uint8Array | undefined>> = [];
  for (let ordinal = from; ordinal < to; ordinal++) reads.push(store.getMeta(concatBytes(prefix, uint64Bytes(ordinal))));
  return (await Promise.all(reads)).filter((at): at is Uint8Array => at !== undefined);
}

/** Whether the occurrence at a position has the exact pair: one point read. */
export async function hasPair(store: VersionedStore, spaceName: IndexSpace, composite: string, value: string, at: Uint8Array): Promise<boolean> {
  return (await store.getMeta(concatBytes(space(spaceName, "e"), pairBytes(composite, value), SEPARATOR, at))) !== undefined;
}

/**
 * Every (composite, value, position) entry whose composite key is `composite`
 * (or, with `keyPrefix`, begins with it), in key order.
 */
export async function* pairEntries(
  store: VersionedStore,
  spaceName: IndexSpace,
  composite: string,
  keyPrefix = false,
): AsyncGenerator<{ composite: string; value: string; at: Uint8Array }> {
  const base = space(spaceName, "e");
  const prefix = keyPrefix ? concatBytes(base, escapeKey(utf8(composite))) : concatBytes(base, escapeKey(utf8(composite)), SEPARATOR);
  for await (const [key] of store.iterateMeta(prefix)) {
    const rest = key.subarray(base.length, key.length - 14);
    const split = separatorAt(rest);
    yield {
      composite: new TextDecoder().decode(unescapeKey(rest.subarray(0, split))),
      value: new TextDecoder().decode(unescapeKey(rest.subarray(split + 2))),
      at: key.subarray(key.length - 12),
    };
  }
}

/** Where 00 00 separates key and value (escaped text never holds two zeros in a row). */
function separatorAt(bytes: Uint8Array): number {
  for (let i = 0; i + 1 < bytes.length; i++) if (bytes[i] === 0 && bytes[i + 1] === 0) return i;
  return bytes.length;
}
