/**
 * api.max-count-total: the most entries a page's `count_total` may scan past
 * the page. Process-wide, as the module queries that paginate are: set once
 * at start by every process that answers queries (the node, REST workers).
 */
export const countTotalCap = {
  /** Entries past the page a count may scan (Infinity: no cap, as in v0.41). */
  max: Number.POSITIVE_INFINITY,
  /** Asked counts refused (400) for passing the cap. */
  refused: 0,
  /** Counts implied by a limit of 0 left out (total 0) for passing the cap. */
  leftOut: 0,
};

export function setCountTotalCap(max: number): void {
  countTotalCap.max = max;
}
