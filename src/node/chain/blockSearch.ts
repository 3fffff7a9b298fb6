import type { VersionedStore } from "../store/versionedStore.js";
import { getBlock, getBlockResults } from "./blockStore.js";
import { indexedPairs, position, readPosition } from "./eventIndex.js";
import { searchIndex, type SearchScope } from "./indexedSearch.js";
import { checkPage, perPageSize, searchOrder } from "./searchPaging.js";
import { parsed } from "./txSearch.js";

export interface BlockSearchPage {
  blocks: unknown[];
  total_count: string;
}

/**
 * block_search: block.height compares the height, other keys the indexed
 * attributes of the block's BeginBlock and EndBlock events. Newest first
 * unless order_by is "asc" (the engine's default is "desc" here).
 */
export async function searchBlocks(store: VersionedStore, latest: number, query: string, page = 1, perPage = 30, orderBy = ""): Promise<BlockSearchPage> {
  const conditions = parsed(query).conditions;
  const order = searchOrder(orderBy, "desc");
  const size = perPageSize(perPage);
  const found = await searchIndex(store, blockScope(store, latest), conditions, order, (Math.max(page, 1) - 1) * size, size);
  checkPage(page, size, found.total);
  const blocks = await Promise.all(found.positions.map((at) => getBlock(store, readPosition(at).height)));
  return { blocks: blocks.filter((b) => b !== undefined), total_count: String(found.total) };
}

function blockScope(store: VersionedStore, latest: number): SearchScope {
  return {
    space: "block",
    heightKey: "block.height",
    heightRange: function* (low, high) {
      for (let height = Math.max(low, 1); height <= Math.min(high, latest); height++) yield position(height, 0);
    },
    attributesAt: async (at) => {
      const height = readPosition(at).height;
      const results = await getBlockResults(store, height);
      const attributes = new Map<string, string[]>([["block.height", [String(height)]]]);
      for (const [key, value] of indexedPairs([...(results?.begin_block_events ?? []), ...(results?.end_block_events ?? [])]))
        attributes.set(key, [...(attributes.get(key) ?? []), value]);
      return attributes;
    },
  };
}
