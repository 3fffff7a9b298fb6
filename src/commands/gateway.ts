import { RpcClient } from "../client/rpcClient.js";
import { Codec } from "../codec/codec.js";
import { loadAppConfig } from "../config/appConfig.js";
import { startRestServer } from "./restServer.js";
import { onShutdown } from "./shutdown.js";
import { useNames, names } from "../names/activeNames.js";
import { detectNodeNames } from "../http/nodeNames.js";
import { MeteredClient } from "../client/meteredClient.js";
import { nodeReadiness } from "../http/readiness.js";
import { flushLogger, type LogFormat } from "../telemetry/logger.js";
import { operations } from "./operations.js";

export interface GatewayOptions {
  home: string;
  node: string;
  apiAddress?: string;
  /** The naming profile, overriding app.toml's names. */
  names?: string;
  /** --log-format: readable text (default) or JSON lines. */
  logFormat?: LogFormat;
}

/** Runs only the REST server, in front of a node that speaks the consensus engine's JSON-RPC. */
export async function gateway(options: GatewayOptions): Promise<void> {
  if (!/^https?:\/\/[^/]+/.test(options.node)) throw new Error(`--node must be an http(s) URL such as http://127.0.0.1:26657, got "${options.node}"`);
  const app = loadAppConfig(options.home);
  if (options.apiAddress) app.api.address = options.apiAddress;
  const timeoutMs = (app.api["rpc-read-timeout"] || 10) * 1000;
  useNames(options.names ?? app.names); // before the proto tree and the tables load
  const ops = operations(app, options.logFormat ?? "text", "gateway");
  const rpc = new RpcClient(options.node, timeoutMs);
  // Ready while the node answers and the NewBlock subscription (the answer cache's, or the one held below) is up.
  const client = new MeteredClient(rpc, ops.telemetry);
  const nodeNames = await detectNodeNames(client); // once, at start
  const rest = await startRestServer(app.api, app["bech32-prefix"], client, new Codec(), nodeNames, {
    ...ops,
    readiness: nodeReadiness(client, () => client.subscriptionUp()),
  });
  // The queries go over the node's websocket that a height watch holds open; answer reuse holds one, else this does.
  const unwatch = app.api["answer-cache-mb"] > 0 ? undefined : client.watchHeights!(() => undefined);
  onShutdown(async () => {
    unwatch?.();
    await rest.close();
    await flushLogger(ops.logger);
  });
  console.log(`REST server: ${rest.url}`);
  console.log(`node RPC:    ${options.node}`);
  if (nodeNames && nodeNames !== names().profile)
    console.log(`warning: the node speaks the "${nodeNames}" names, this gateway the "${names().profile}" names: every request is answered 502`);
}
