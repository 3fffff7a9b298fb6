import type { AppConfig } from "../../config/appConfig.js";
import { parseDurationSetting } from "../../config/tomlConfig.js";

/** How a gateway in front of several nodes judges them ([gateway] of app.toml). */
export interface UpstreamSettings {
  probeIntervalMs: number;
  /** A node more blocks than this behind the best height is not chosen for the latest height. */
  maxLagBlocks: number;
  /** A node whose last probe took longer is not chosen. */
  latencyWindowMs: number;
  /** Consecutive failures (calls or probes) that take a node out for the cooldown. */
  errorThreshold: number;
  cooldownMs: number;
  /** Each call's time limit (api.rpc-read-timeout). */
  timeoutMs: number;
  /** How long a request waits for some node to reach the height its connection was already answered at. */
  floorWaitMs: number;
}

export function upstreamSettings(app: AppConfig): UpstreamSettings {
  const g = app.gateway;
  const timeoutMs = (app.api["rpc-read-timeout"] || 10) * 1000;
  return {
    probeIntervalMs: Math.max(100, parseDurationSetting(g["probe-interval"])),
    maxLagBlocks: g["max-lag-blocks"],
    latencyWindowMs: parseDurationSetting(g["latency-window"]),
    errorThreshold: g["error-threshold"],
    cooldownMs: parseDurationSetting(g.cooldown),
    timeoutMs,
    floorWaitMs: Math.min(timeoutMs, 5_000),
  };
}

/** The nodes of a gateway: the command line's --node (repeatable) or [gateway] nodes, and the archive node. */
export interface UpstreamList {
  nodes: string[];
  archive?: string;
}

const NODE_URL = /^https?:\/\/[^/\s]+/;

export function checkUpstreamList(list: UpstreamList): UpstreamList {
  if (list.nodes.length === 0) throw new Error("gateway needs a node: --node URL (repeatable) or [gateway] nodes in app.toml");
  for (const url of [...list.nodes, ...(list.archive ? [list.archive] : [])]) {
    if (!NODE_URL.test(url)) throw new Error(`--node must be an http(s) URL such as http://127.0.0.1:26657, got "${url}"`);
  }
  const all = [...list.nodes, ...(list.archive ? [list.archive] : [])];
  if (new Set(all).size !== all.length) throw new Error(`a node is named twice: ${all.join(", ")}`);
  return list;
}
