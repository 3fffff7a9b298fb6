import type { UpstreamSettings } from "./upstreamSettings.js";

/** What the last probes and calls found out about one node. */
export interface ProbedState {
  chainId?: string;
  latest?: number;
  latestTime?: string;
  earliest?: number;
  /** The last probe's round trip; undefined until one answered. */
  latencyMs?: number;
  /** The last probe failed (its message). */
  probeError?: string;
  /** Failures in a row (calls and probes); reset by a success. */
  failures: number;
  /** Left out until then (epoch ms) after errorThreshold failures in a row. */
  outUntil: number;
}

/**
 * Why a node may not answer a request at the latest height now, or undefined
 * when it may: it answered its last probe in the latency window, its chain is
 * the expected one, it is not cooling down, and it is within maxLagBlocks of
 * the best height any node reported.
 */
export function ineligibility(
  state: ProbedState,
  latest: number | undefined,
  expectedChainId: string | undefined,
  best: number,
  settings: UpstreamSettings,
  now: number,
): string | undefined {
  if (state.outUntil > now) return `out after ${settings.errorThreshold} failures in a row, for ${Math.ceil((state.outUntil - now) / 1000)} s more`;
  if (state.probeError !== undefined) return `probe failed: ${state.probeError}`;
  if (latest === undefined || state.latencyMs === undefined) return "not probed yet";
  if (expectedChainId !== undefined && state.chainId !== expectedChainId) return `chain id ${state.chainId} is not ${expectedChainId}`;
  if (state.latencyMs > settings.latencyWindowMs) return `probe took ${Math.round(state.latencyMs)} ms, more than ${settings.latencyWindowMs} ms`;
  if (best - latest > settings.maxLagBlocks) return `at height ${latest}, more than ${settings.maxLagBlocks} blocks behind ${best}`;
  return undefined;
}
