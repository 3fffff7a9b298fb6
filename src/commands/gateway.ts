import { Codec } from "../codec/codec.js";
import { loadAppConfig } from "../config/appConfig.js";
import { startRestServer } from "./restServer.js";
import { onShutdown } from "./shutdown.js";
import { useNames } from "../names/activeNames.js";
import { flushLogger, type LogFormat } from "../telemetry/logger.js";
import { operations } from "./operations.js";
import { processLogger } from "../telemetry/processLogger.js";
import { gatewayClient, namesMismatchWarning } from "./gatewayClient.js";
import { workerCount } from "./workerCount.js";
import { startRestWorkers } from "../workers/restWorkers.js";
import { checkUpstreamList } from "../client/upstreams/upstreamSettings.js";

export interface GatewayOptions {
  home: string;
  /** --node, repeatable (empty: [gateway] nodes of app.toml). */
  nodes: string[];
  /** --archive-node (else [gateway] archive-node). */
  archiveNode?: string;
  apiAddress?: string;
  /** The naming profile, overriding app.toml's names. */
  names?: string;
  /** --log-format: readable text (default) or JSON lines. */
  logFormat?: LogFormat;
}

/** Runs only the REST server, in front of a node that speaks the consensus engine's JSON-RPC. */
export async function gateway(options: GatewayOptions): Promise<void> {
  const log = processLogger(options.logFormat ?? "text"); // before anything logs: the output is one format throughout
  const app = loadAppConfig(options.home);
  const upstreams = checkUpstreamList({
    nodes: options.nodes.length > 0 ? options.nodes : app.gateway.nodes,
    archive: options.archiveNode || app.gateway["archive-node"] || undefined,
  });
  const nodesText = [...upstreams.nodes, ...(upstreams.archive ? [`${upstreams.archive} (archive)`] : [])].join(", ");
  if (options.apiAddress) app.api.address = options.apiAddress;
  const workers = workerCount(app.api.workers);
  if (workers > 1) {
    // each worker asks the node itself (its own RPC client and NewBlock subscription); this process only hands out connections
    const job = { command: "gateway" as const, app, logFormat: options.logFormat ?? "text", node: upstreams.nodes[0], upstreams, names: options.names };
    const rest = await startRestWorkers(workers, { job });
    onShutdown(() => rest.close());
    log.info(`REST server: ${rest.url} (${workers} workers)`);
    log.info(`node RPC:    ${nodesText}`);
    return;
  }
  useNames(options.names ?? app.names); // before the proto tree and the tables load
  const ops = operations(app, options.logFormat ?? "text", "gateway");
  const upstream = await gatewayClient(app, upstreams, ops.telemetry);
  const rest = await startRestServer(app.api, app["bech32-prefix"], upstream.client, new Codec(), upstream.nodeNames, {
    ...ops,
    readiness: upstream.readiness,
    requestScope: upstream.requestScope,
  });
  onShutdown(async () => {
    upstream.stop();
    await rest.close();
    await flushLogger(ops.logger);
  });
  log.info(`REST server: ${rest.url}`);
  log.info(`node RPC:    ${nodesText}`);
  const warning = namesMismatchWarning(upstream.nodeNames);
  if (warning) log.warn(warning);
}
