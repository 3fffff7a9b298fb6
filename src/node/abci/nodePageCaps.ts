/**
 * What the embedded node's pages may cost: api.max-count-total, the most
 * entries a `count_total` may scan past the page, and the page a limit of 0
 * stands for (v0.41's 100, or api.max-page-limit when lower). Process-wide,
 * as the module queries that paginate are: set once at start by every process
 * that answers queries (the node, REST workers).
 */
export const nodePageCaps = {
  /** Entries past the page a count may scan (Infinity: no cap, as in v0.41). */
  maxCountTotal: Number.POSITIVE_INFINITY,
  /** The limit a limit of 0 stands for. */
  defaultLimit: 100,
  /** Asked counts refused (400) for passing the cap. */
  refused: 0,
  /** Counts implied by a limit of 0 left out (total 0) for passing the cap. */
  leftOut: 0,
};

export function setNodePageCaps(maxCountTotal: number, maxLimit: number): void {
  nodePageCaps.maxCountTotal = maxCountTotal;
  nodePageCaps.defaultLimit = Math.min(100, maxLimit);
}
