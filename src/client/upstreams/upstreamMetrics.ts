import type { Telemetry } from "../../telemetry/telemetry.js";
import type { MultiNodeClient } from "./multiNodeClient.js";

/** Per node (label `node`: its URL, a bounded set fixed at start): eligibility, heights, probe latency, calls in flight. */
export function upstreamMetrics(telemetry: Telemetry, client: MultiNodeClient): void {
  const eligible = telemetry.gauge("upstream_node_eligible", "1 while the node may answer at the latest height, else 0.");
  const latest = telemetry.gauge("upstream_node_latest_height", "The node's latest height (its probe or NewBlock events; 0 before any).");
  const earliest = telemetry.gauge("upstream_node_earliest_height", "The lowest height the node is known to keep (0 before a probe).");
  const latency = telemetry.gauge("upstream_node_probe_seconds", "How long the node's last status probe took.");
  const inFlight = telemetry.gauge("upstream_node_in_flight", "Calls to the node not answered yet.");
  const failures = telemetry.gauge("upstream_node_failures_in_a_row", "Failed calls or probes in a row (at gateway.error-threshold the node is out).");
  for (const node of client.nodes) {
    const labels = { node: node.address };
    eligible.reads(() => (client.ineligibility(node) === undefined ? 1 : 0), labels);
    latest.reads(() => node.latest ?? 0, labels);
    earliest.reads(() => node.earliest ?? 0, labels);
    latency.reads(() => (node.state.latencyMs ?? 0) / 1000, labels);
    inFlight.reads(() => node.inFlight, labels);
    failures.reads(() => node.state.failures, labels);
  }
}
