import type { ChainClient } from "../client/chainClient.js";
import type { ReadinessCheck } from "./health.js";

/**
 * Ready when the node answers its status (within the client's time limit, the
 * api.rpc-read-timeout of a remote node) and is not catching up, and, where
 * answers follow the node's NewBlock events (`gateway --node`), while that
 * subscription is up.
 */
export function nodeReadiness(client: ChainClient, subscriptionUp?: () => boolean): ReadinessCheck {
  return async () => {
    if (subscriptionUp && !subscriptionUp()) return { ready: false, reason: `the NewBlock subscription to node ${client.address} is down` };
    try {
      const { sync_info: sync } = await client.status();
      const height = Number(sync.latest_block_height);
      const time = Date.parse(String(sync.latest_block_time));
      const blockTime = Number.isFinite(time) ? time : undefined;
      if (sync.catching_up) return { ready: false, reason: `node ${client.address} is catching up (at height ${height})`, height, blockTime };
      return { ready: true, height, blockTime };
    } catch (err) {
      return { ready: false, reason: (err as Error).message };
    }
  };
}
