import type { ReadinessCheck } from "../../http/health.js";
import type { MultiNodeClient } from "./multiNodeClient.js";

/** Ready while at least one node is eligible; the answer lists every node's state either way. */
export function upstreamReadiness(client: MultiNodeClient): ReadinessCheck {
  return async () => {
    const upstreams = client.describeNodes();
    const eligible = client.eligibleNodes();
    const best = eligible.reduce<(typeof eligible)[number] | undefined>((a, n) => (!a || (n.latest ?? 0) > (a.latest ?? 0) ? n : a), undefined);
    if (!best) return { ready: false, reason: client.noneEligible().message, upstreams };
    const time = Date.parse(String(best.state.latestTime));
    return { ready: true, height: best.latest, blockTime: Number.isFinite(time) ? time : undefined, upstreams };
  };
}
