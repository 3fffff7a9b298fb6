import type { VersionedStore } from "../store/versionedStore.js";
import { allPositions, eventEntries, eventPrefix, getIndexedTx, type IndexedTx } from "./txIndex.js";
import { matches, parseQuery, type Condition } from "./txQuery.js";

export class TxSearchError extends Error {}

export interface TxSearchPage {
  txs: IndexedTx[];
  total_count: string;
}

/**
 * tx_search over the node's index, with the engine's rules: tx.hash looks up
 * one transaction and ignores the other conditions; tx.height compares the
 * height; other tags compare indexed event attributes; all conditions must
 * hold. per_page is 30 by default and at most 100; page must be in range.
 */
export async function searchTxs(store: VersionedStore, query: string, page = 1, perPage = 30, orderBy: "asc" | "desc" | "" = "asc"): Promise<TxSearchPage> {
  let conditions: Condition[];
  try {
    conditions = parseQuery(query);
  } catch (err) {
    throw new TxSearchError((err as Error).message);
  }
  if (orderBy !== "asc" && orderBy !== "desc" && orderBy !== "") throw new TxSearchError("expected order_by to be either `asc` or `desc` or empty");
  const byHash = conditions.find((c) => c.tag === "tx.hash" && c.op === "=" && c.operand?.kind === "string");
  let found: IndexedTx[];
  if (byHash) {
    const tx = /^[0-9a-fA-F]*$/.test(String(byHash.operand!.value)) ? await getIndexedTx(store, Buffer.from(String(byHash.operand!.value), "hex")) : undefined;
    found = tx ? [tx] : [];
  } else {
    const hits = await positionsMatching(store, conditions);
    found = [];
    for (const hash of hits.values()) found.push((await getIndexedTx(store, Buffer.from(hash, "hex")))!);
  }
  found.sort((a, b) => Number(a.height) - Number(b.height) || a.index - b.index);
  if (orderBy === "desc") found.reverse();
  const size = perPage < 1 ? 30 : Math.min(perPage, 100);
  const pages = Math.max(1, Math.ceil(found.length / size));
  if (page < 1 || page > pages) throw new TxSearchError(`page should be within [1, ${pages}] range, given ${page}`);
  return { txs: found.slice((page - 1) * size, page * size), total_count: String(found.length) };
}

/** Positions ("height:index" → hash) of the transactions that satisfy every condition. */
async function positionsMatching(store: VersionedStore, conditions: Condition[]): Promise<Map<string, string>> {
  let result: Map<string, string> | undefined;
  for (const condition of conditions) {
    const hits = new Map<string, string>();
    if (condition.tag === "tx.height") {
      for await (const p of allPositions(store)) if (matches(condition, String(p.height))) hits.set(`${p.height}:${p.index}`, hex(p.hash));
    } else {
      const exact = condition.op === "=" && condition.operand?.kind === "string";
      const prefix = eventPrefix(condition.tag, exact ? String(condition.operand!.value) : undefined);
      for await (const entry of eventEntries(store, prefix)) {
        if (exact || matches(condition, entry.value)) hits.set(`${entry.height}:${entry.index}`, hex(entry.hash));
      }
    }
    result = result ? new Map([...result].filter(([position]) => hits.has(position))) : hits;
    if (result.size === 0) break;
  }
  return result ?? new Map();
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex").toUpperCase();
}
