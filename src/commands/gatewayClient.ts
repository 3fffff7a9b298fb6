import type { ChainClient } from "../client/chainClient.js";
import { MeteredClient } from "../client/meteredClient.js";
import { RpcClient } from "../client/rpcClient.js";
import type { AppConfig } from "../config/appConfig.js";
import type { ReadinessCheck } from "../http/health.js";
import { detectNodeNames } from "../http/nodeNames.js";
import { nodeReadiness } from "../http/readiness.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import { names } from "../names/activeNames.js";
import { MultiNodeClient } from "../client/upstreams/multiNodeClient.js";
import { upstreamMetrics } from "../client/upstreams/upstreamMetrics.js";
import { upstreamReadiness } from "../client/upstreams/upstreamReadiness.js";
import { upstreamSettings, type UpstreamList } from "../client/upstreams/upstreamSettings.js";
import { upstreamScope } from "../http/upstreamScope.js";
import type { Middleware } from "koa";

/** A gateway process's (or gateway worker's) connection to the remote node, and what it learned at start. */
export interface GatewayClient {
  client: ChainClient;
  /** The naming profile the node answers to (asked once, at start). */
  nodeNames: string | undefined;
  readiness: ReadinessCheck;
  /** Several nodes: each request's scope (the connection's height floor). */
  requestScope?: Middleware;
  /** Ends the height watch held for the websocket, if one is. */
  stop(): void;
}

export async function gatewayClient(app: AppConfig, upstreams: UpstreamList, telemetry: Telemetry | undefined): Promise<GatewayClient> {
  if (upstreams.nodes.length > 1 || upstreams.archive) return multiNodeGatewayClient(app, upstreams, telemetry);
  const node = upstreams.nodes[0]!;
  const timeoutMs = (app.api["rpc-read-timeout"] || 10) * 1000;
  // Ready while the node answers and the NewBlock subscription (the answer cache's, or the one held below) is up.
  const client = new MeteredClient(new RpcClient(node, timeoutMs), telemetry);
  const nodeNames = await detectNodeNames(client);
  // The queries go over the node's websocket that a height watch holds open; answer reuse holds one, else this does.
  const unwatch = app.api["answer-cache-mb"] > 0 ? undefined : client.watchHeights!(() => undefined);
  return { client, nodeNames, readiness: nodeReadiness(client, () => client.subscriptionUp()), stop: () => unwatch?.() };
}

/** The start-up warning when the node speaks another naming profile than this gateway (every request is then answered 502). */
export function namesMismatchWarning(nodeNames: string | undefined): string | undefined {
  const own = names().profile;
  return nodeNames && nodeNames !== own
    ? `warning: the node speaks the "${nodeNames}" names, this gateway the "${own}" names: every request is answered 502`
    : undefined;
}

/** In front of several nodes (--node repeated, [gateway] nodes, an archive node): one client composing an RpcClient per node. */
async function multiNodeGatewayClient(app: AppConfig, upstreams: UpstreamList, telemetry: Telemetry | undefined): Promise<GatewayClient> {
  const multi = new MultiNodeClient(upstreams, upstreamSettings(app));
  await multi.start();
  if (telemetry) upstreamMetrics(telemetry, multi);
  const client = new MeteredClient(multi, telemetry);
  const nodeNames = await detectNodeNames(client).catch(() => undefined);
  const unwatch = app.api["answer-cache-mb"] > 0 ? undefined : client.watchHeights!(() => undefined);
  return {
    client,
    nodeNames,
    readiness: upstreamReadiness(multi),
    requestScope: upstreamScope(),
    stop: () => {
      unwatch?.();
      multi.stop();
    },
  };
}
