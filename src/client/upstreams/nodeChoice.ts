import type { UpstreamNode } from "./upstreamNode.js";

/**
 * The least-loaded node: the fewest calls in flight, ties to the lower probe
 * latency. Least-loaded rather than weighted: the gateway sees each node's
 * queue directly, so a slow or busy node receives less without anyone tuning
 * weights, and a node that just came back is not flooded by a stale weight.
 */
export function leastLoaded(nodes: readonly UpstreamNode[]): UpstreamNode | undefined {
  let chosen: UpstreamNode | undefined;
  for (const node of nodes) {
    if (
      !chosen ||
      node.inFlight < chosen.inFlight ||
      (node.inFlight === chosen.inFlight && (node.state.latencyMs ?? Infinity) < (chosen.state.latencyMs ?? Infinity))
    )
      chosen = node;
  }
  return chosen;
}
