import { EventQuery } from "../../events/eventQuery.js";
import type { VersionedStore } from "../store/versionedStore.js";
import { indexedPairs, readPosition } from "./eventIndex.js";
import { searchIndex, type SearchScope } from "./indexedSearch.js";
import { checkPage, perPageSize, searchOrder, SearchError } from "./searchPaging.js";
import { getIndexedTx, txAt, txPositions, type IndexedTx } from "./txIndex.js";

export { SearchError as TxSearchError };

export interface TxSearchPage {
  txs: IndexedTx[];
  total_count: string;
}

/**
 * tx_search over the node's index, with the engine's rules: tx.hash looks up
 * one transaction and ignores the other conditions; tx.height compares the
 * height; other keys compare indexed event attributes; all conditions must
 * hold. A page costs O(page) for one `key='value'` condition (see indexedSearch.ts).
 */
export async function searchTxs(store: VersionedStore, query: string, page = 1, perPage = 30, orderBy = "asc"): Promise<TxSearchPage> {
  const conditions = parsed(query).conditions;
  const order = searchOrder(orderBy, "asc");
  const size = perPageSize(perPage);
  const byHash = conditions.find((c) => c.key === "tx.hash" && c.op === "=" && c.operand?.kind === "string");
  if (byHash) {
    const hash = byHash.operand!.value as string;
    const tx = /^([0-9a-fA-F]{2})*$/.test(hash) ? await getIndexedTx(store, Buffer.from(hash, "hex")) : undefined;
    checkPage(page, size, tx ? 1 : 0);
    return { txs: tx ? [tx] : [], total_count: tx ? "1" : "0" };
  }
  const found = await searchIndex(store, txScope(store), conditions, order, (Math.max(page, 1) - 1) * size, size);
  checkPage(page, size, found.total);
  const txs = await Promise.all(found.positions.map((at) => txAt(store, at)));
  return { txs: txs.filter((tx): tx is IndexedTx => tx !== undefined), total_count: String(found.total) };
}

export function parsed(query: string): EventQuery {
  try {
    return new EventQuery(query);
  } catch (err) {
    throw new SearchError((err as Error).message);
  }
}

function txScope(store: VersionedStore): SearchScope {
  return {
    space: "tx",
    heightKey: "tx.height",
    heightRange: (low, high) => txPositions(store, low, high),
    attributesAt: async (at) => {
      const tx = await txAt(store, at);
      const attributes = new Map<string, string[]>([
        ["tx.height", [String(readPosition(at).height)]],
        ["tx.hash", tx ? [tx.hash] : []],
      ]);
      for (const [key, value] of indexedPairs(tx?.tx_result.events ?? [])) attributes.set(key, [...(attributes.get(key) ?? []), value]);
      return attributes;
    },
  };
}
