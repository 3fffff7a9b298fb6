import type { EventListener } from "../chainClient.js";
import { leastLoaded } from "./nodeChoice.js";
import type { NodePool } from "./nodePool.js";
import type { UpstreamNode } from "./upstreamNode.js";

/**
 * An event subscription held on one eligible node; when that node's
 * websocket closes, the same query is subscribed on another eligible node and
 * the listener goes on receiving (a /events client sees no end; what it missed
 * in between it asks again with Last-Event-ID). The listener is ended only
 * when no other node takes the subscription.
 */
export async function failoverSubscribe(client: NodePool, query: string, listener: EventListener): Promise<() => void> {
  let leave: (() => void) | undefined;
  let ended = false;
  const failed = new Set<UpstreamNode>();

  const attach = async (): Promise<void> => {
    for (;;) {
      const candidates = client.eligibleNodes().filter((n) => !failed.has(n));
      const node = leastLoaded(candidates.filter((n) => !n.archive)) ?? leastLoaded(candidates);
      if (!node) throw client.noneEligible();
      try {
        leave = await node.rpc.subscribeEvents(query, {
          event: (event) => {
            if (!ended) listener.event(event);
          },
          end: (reason) => {
            if (ended) return;
            failed.add(node);
            leave = undefined;
            attach().catch(() => {
              ended = true;
              listener.end(`${reason}, and no other node took the subscription`);
            });
          },
        });
        return;
      } catch (err) {
        failed.add(node);
        if (failed.size >= client.nodes.length) throw err;
      }
    }
  };

  await attach();
  return () => {
    ended = true;
    leave?.();
  };
}
