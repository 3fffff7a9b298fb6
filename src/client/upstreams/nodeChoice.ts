import type { UpstreamNode } from "./upstreamNode.js";

/** Where the next tie-break starts: ties go round the nodes in turn. */
let turn = 0;
/** The node the last choice went to. */
let current: UpstreamNode | undefined;
/** How many more calls in flight the current node may have than the least loaded before the choice moves. */
const SLACK = 16;
/** The node chosen in this tick: the tick's other calls go there too (undefined once the tick ended). */
let tickChoice: UpstreamNode | undefined;

/**
 * The least-loaded node, with hysteresis: the node chosen last while it has at
 * most SLACK more calls in flight from this gateway than the least loaded, else
 * the least loaded (ties taken in turn). Least-loaded rather than weighted: the
 * gateway sees each node's queue directly, so a slow or busy node receives less
 * without anyone tuning weights, and a node that just came back is not flooded
 * by a stale weight. The hysteresis keeps the calls on one node until its queue
 * grows: calls spread over every node wake each node's process and socket for
 * fewer calls, and cost the gateway more CPU per request than calls to one (the
 * multi-node bench row weighs it); a busy or slow node still loses calls to the others.
 * The choice is made once per tick: the calls of one tick (a turn's batch of
 * requests, turnBatching.ts) go to one node, so that they leave in one write
 * (socketCalls.ts) and wake one node, not one write and one wake-up per node.
 * A call whose node set leaves out the tick's node (another floor, a retry) is
 * chosen for on its own.
 */
export function leastLoaded(nodes: readonly UpstreamNode[]): UpstreamNode | undefined {
  if (tickChoice !== undefined && nodes.includes(tickChoice)) return tickChoice;
  const chosen = leastLoadedNow(nodes);
  if (chosen !== undefined && tickChoice === undefined) process.nextTick(() => (tickChoice = undefined));
  tickChoice = chosen;
  return chosen;
}

function leastLoadedNow(nodes: readonly UpstreamNode[]): UpstreamNode | undefined {
  const count = nodes.length;
  if (count === 0) return undefined;
  const start = turn++ % count;
  let chosen = nodes[start]!;
  for (let k = 1; k < count; k++) {
    const node = nodes[(start + k) % count]!;
    if (node.inFlight < chosen.inFlight) chosen = node;
  }
  if (current !== undefined && current !== chosen && current.inFlight <= chosen.inFlight + SLACK && nodes.includes(current)) return current;
  current = chosen;
  return chosen;
}
