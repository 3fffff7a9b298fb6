/** The engine's paging of search results: per_page 30 by default, at most 100; page within range. */
const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;

export class SearchError extends Error {}

export function perPageSize(perPage: number): number {
  return perPage < 1 ? DEFAULT_PER_PAGE : Math.min(perPage, MAX_PER_PAGE);
}

/** Throws the engine's error for a page outside [1, pages] (one page when nothing matched). */
export function checkPage(page: number, size: number, total: number): void {
  const pages = Math.max(1, Math.ceil(total / size));
  if (page < 1 || page > pages) throw new SearchError(`page should be within [1, ${pages}] range, given ${page}`);
}

/** order_by: tx_search reads "" as asc, block_search as desc. */
export function searchOrder(orderBy: string, empty: "asc" | "desc"): "asc" | "desc" {
  if (orderBy === "") return empty;
  if (orderBy === "asc" || orderBy === "desc") return orderBy;
  throw new SearchError("expected order_by to be either `asc` or `desc` or empty");
}
