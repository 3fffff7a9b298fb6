import type { UpstreamNode } from "./upstreamNode.js";

/** Where the next tie-break starts: ties go round the nodes in turn. */
let turn = 0;

/**
 * The least-loaded node: the fewest calls in flight from this gateway, ties
 * taken in turn. Least-loaded rather than weighted: the gateway sees each
 * node's queue directly, so a slow or busy node receives less without anyone
 * tuning weights, and a node that just came back is not flooded by a stale
 * weight. Ties in turn (not to the fastest probe) so that an idle gateway
 * still spreads its calls, and a node that died is met by a call soon.
 */
export function leastLoaded(nodes: readonly UpstreamNode[]): UpstreamNode | undefined {
  const count = nodes.length;
  if (count === 0) return undefined;
  const start = turn++ % count;
  let chosen = nodes[start]!;
  for (let k = 1; k < count; k++) {
    const node = nodes[(start + k) % count]!;
    if (node.inFlight < chosen.inFlight) chosen = node;
  }
  return chosen;
}
