import type { AbciQueryResponse } from "../chainClient.js";
import type { UpstreamNode } from "./upstreamNode.js";

/** The SDK's ErrInvalidHeight (codespace sdk): the gateway answers it 400 in both route families. */
const INVALID_HEIGHT_CODE = 26;

/** The SDK's ErrInvalidRequest, which its baseapp answers for a height whose state is gone. */
const INVALID_REQUEST_CODE = 18;
const STATE_MISSING = /^failed to load state at height \d{1,16}; version does not exist/;

/** A query refused because the node does not keep its height (not an answer about the chain). */
export function isHeightRefusal(answer: AbciQueryResponse): boolean {
  if (answer.codespace !== "sdk") return false;
  return answer.code === INVALID_HEIGHT_CODE || (answer.code === INVALID_REQUEST_CODE && STATE_MISSING.test(answer.log));
}

/** Every node's kept range, for the refusal of a height none of them keeps. */
export function keptRangesText(nodes: readonly UpstreamNode[]): string {
  return nodes
    .map((node) => `${node.address}${node.archive ? " (archive)" : ""}: ${node.state.probeError ? "unreachable, last kept " : ""}${node.keptRange()}`)
    .join(", ");
}

/** The lowest and highest height any node keeps (undefined when no node was probed). */
function keptBounds(nodes: readonly UpstreamNode[]): { earliest: number; latest: number } | undefined {
  const earliest = nodes.map((n) => n.earliest).filter((h): h is number => h !== undefined);
  const latest = nodes.map((n) => n.latest).filter((h): h is number => h !== undefined);
  if (earliest.length === 0 || latest.length === 0) return undefined;
  return { earliest: Math.min(...earliest), latest: Math.max(...latest) };
}

/**
 * The query refusal, as a node answers a height it does not keep, naming the
 * range of every node; the earliest and latest heights are those of the nodes
 * that answer now (`reachable`).
 */
export function noNodeKeeps(height: number, nodes: readonly UpstreamNode[], reachable: readonly UpstreamNode[]): AbciQueryResponse {
  const bounds = keptBounds(reachable);
  const span = bounds ? ` (earliest height ${bounds.earliest}, latest height ${bounds.latest})` : "";
  return {
    code: INVALID_HEIGHT_CODE,
    codespace: "sdk",
    log: `cannot query at height ${height}: no node keeps it${span}; kept heights: ${keptRangesText(nodes)}: invalid height`,
    value: new Uint8Array(),
    height,
  };
}
