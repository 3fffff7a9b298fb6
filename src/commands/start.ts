import fs from "node:fs";
import path from "node:path";
import { Codec } from "../codec/codec.js";
import { loadAppConfig } from "../config/appConfig.js";
import { setNodePageCaps } from "../node/abci/nodePageCaps.js";
import { loadNodeConfig } from "../config/nodeConfig.js";
import { parseDurationSetting } from "../config/tomlConfig.js";
import { EmbeddedNode } from "../node/embeddedNode.js";
import { InProcessClient } from "../node/inProcessClient.js";
import { startRpcServer } from "../node/rpc/rpcServer.js";
import type { RunningServer } from "../util/runningServer.js";
import { isInitialized } from "./home.js";
import { readDevAccountsHead } from "./devAccountsHead.js";
import { initHome } from "./init.js";
import { compileTables, startRestServer } from "./restServer.js";
import { onShutdown } from "./shutdown.js";
import { useNames } from "../names/activeNames.js";
import { txServiceQueries } from "./serviceQueries.js";
import { nodeServiceQueries } from "./nodeServiceQueries.js";
import { operations } from "./operations.js";
import { processLogger } from "../telemetry/processLogger.js";
import { operateNode } from "./nodeOperations.js";
import { flushLogger, type LogFormat } from "../telemetry/logger.js";
import { startFaucet } from "../faucet/startFaucet.js";
import { parseForkFund } from "../node/fork/forkPoint.js";
import { workerCount } from "./workerCount.js";
import { ReplicaStamp } from "../node/store/replicaStamp.js";
import type { ReplicaJob } from "../workers/messages.js";

export interface StartOptions {
  home: string;
  apiAddress?: string;
  rpcLaddr?: string;
  /** --log-format: readable text (default) or JSON lines. */
  logFormat?: LogFormat;
  /** --fork <url> [--fork-height H] [--fork-fund address=coins]... [--fork-chain-id id] [--fork-validator operator] */
  fork?: { url: string; height?: number; fund: string[]; chainId?: string; validatorOperator?: string };
}

const SHOWN_ACCOUNTS = 10;

/** Runs the embedded node, its JSON-RPC and (when api.enable) the REST server, until SIGINT/SIGTERM. */
export async function start(options: StartOptions): Promise<void> {
  const log = processLogger(options.logFormat ?? "text"); // before anything logs: the output is one format throughout
  if (!isInitialized(options.home)) {
    log.info(`initializing a new development chain in ${options.home}`);
    initHome({ home: options.home, chainId: "devnet-1", accounts: 10, denom: "uhub" });
  }
  const app = loadAppConfig(options.home);
  const nodeConfig = loadNodeConfig(options.home);
  if (options.apiAddress) app.api.address = options.apiAddress;
  if (options.rpcLaddr) nodeConfig.rpc.laddr = options.rpcLaddr;
  setNodePageCaps(app.api["max-count-total"], app.api["max-page-limit"]); // the node's own scans, with or without the REST server

  useNames(app.names); // before the proto tree and the tables load
  const codec = new Codec();
  // checked before the node opens: a table mistake fails at once, not after a genesis import of minutes
  const tables = app.api.enable ? compileTables(codec, { newerRoutes: app.api["newer-routes"] }) : undefined;
  const node = await EmbeddedNode.open({
    home: options.home,
    bech32Prefix: app["bech32-prefix"],
    keepRecent: app["pruning-keep-recent"],
    moniker: nodeConfig.moniker,
    minimumGasPrices: app["minimum-gas-prices"],
    codec,
    importProgress: (line) => log.info(line),
    fork: options.fork && { ...options.fork, fund: options.fork.fund.map(parseForkFund) },
  });
  if (node.forkPoint) log.info(`fork of ${node.forkPoint.url} (chain ${node.forkPoint.remoteChainId}) at height ${node.forkPoint.height}`);
  const ops = operations(app, options.logFormat ?? "text", "start");
  operateNode(node, codec, ops.telemetry, ops.logger);
  const client = new InProcessClient(node);
  for (const { path, handler } of txServiceQueries(codec, client, app["bech32-prefix"])) node.serveQuery(path, handler);
  const nodeSettings = { minimumGasPrices: app["minimum-gas-prices"], keepRecent: app["pruning-keep-recent"] };
  for (const { path, handler } of nodeServiceQueries(node, codec, nodeSettings)) node.serveQuery(path, handler);
  const servers: RunningServer[] = [];
  let blockTimer: NodeJS.Timeout | undefined;
  const workers = workerCount(app.api.workers);
  // made before the RPC listens (nothing commits during the copy); a fork's state is partly remote: its workers ask the node.
  // CHAIN_REST_WORKERS_REPLICA=off gives every start that simpler design, for the benchmark that weighs the two.
  const replicaWanted = app.api.enable && workers > 1 && !node.forkPoint && process.env.CHAIN_REST_WORKERS_REPLICA !== "off";
  const replica = replicaWanted ? await workersReplica(options.home, node) : undefined;
  onShutdown(async () => {
    clearInterval(blockTimer);
    await Promise.all(servers.map((s) => s.close()));
    await replica?.close();
    await node.close();
    await flushLogger(ops.logger);
  });

  const subscriptionLimits = { maxClients: nodeConfig.rpc.max_subscription_clients, maxPerClient: nodeConfig.rpc.max_subscriptions_per_client };
  const rpc = await startRpcServer(
    node,
    client,
    nodeConfig.rpc.laddr,
    {
      maxSubscriptionClients: subscriptionLimits.maxClients,
      maxSubscriptionsPerClient: subscriptionLimits.maxPerClient,
    },
    {
      origins: nodeConfig.rpc.cors_allowed_origins,
      methods: nodeConfig.rpc.cors_allowed_methods,
      headers: nodeConfig.rpc.cors_allowed_headers,
    },
  );
  servers.push(rpc);
  client.rpcListensAt(rpc.url.replace(/^http:/, "tcp:"));
  const rest = !app.api.enable
    ? undefined
    : workers > 1
      ? await startWorkers(
          node,
          client,
          workers,
          { app, logFormat: options.logFormat ?? "text", eventLimits: subscriptionLimits, replica: replica?.job },
          ops.telemetry?.registry,
        )
      : await startRestServer(app.api, app["bech32-prefix"], client, codec, undefined, { ...ops, eventLimits: subscriptionLimits, tables });
  if (rest) servers.push(rest);
  const faucet = await startFaucet(options.home, app, client, codec, node.chain.chainId, rpc.url);
  if (faucet) servers.push(faucet);
  if (nodeConfig.consensus.create_empty_blocks) {
    const interval = parseDurationSetting(nodeConfig.consensus.create_empty_blocks_interval);
    let producing = false;
    blockTimer = setInterval(() => {
      if (producing || !node.autoBlocks) return; // set_auto_blocks turns this off at run time
      producing = true;
      node
        .produceBlock()
        .catch((err: unknown) => log.error({ err }, "[node] block production failed"))
        .finally(() => (producing = false));
    }, interval);
  }

  log.info(`chain ${node.chain.chainId} at height ${node.height} (home ${options.home})`);
  if (!node.forkPoint) await printAccounts(options.home); // a fork's accounts are the remote's and the --fork-fund ones
  log.info(rest ? `REST server: ${rest.url}${workers > 1 ? ` (${workers} workers)` : ""}` : "REST server: disabled (api.enable = false)");
  log.info(`node RPC:    ${rpc.url}`);
  if (faucet) log.info(`faucet:      ${faucet.url}`);
}

type StartNodeRestWorkers = typeof import("./nodeRestWorkers.js").startNodeRestWorkers;

/** The REST workers (src/workers/): the cluster and their modules are loaded only for them. */
async function startWorkers(...args: Parameters<StartNodeRestWorkers>): ReturnType<StartNodeRestWorkers> {
  return (await import("./nodeRestWorkers.js")).startNodeRestWorkers(...args);
}

/**
 * The LMDB copy of the latest state that the REST workers read themselves (src/node/store/latestReplica.ts), removed at shutdown.
 * LMDB is loaded only for workers (a start with one process does not pay for it).
 */
async function workersReplica(home: string, node: EmbeddedNode): Promise<{ job: ReplicaJob; close(): Promise<void> }> {
  const dir = path.join(home, "data", "workers-state.lmdb");
  const { LatestReplica } = await import("../node/store/latestReplica.js");
  const replica = await LatestReplica.create(dir, node.store);
  return {
    job: { dir, chainId: node.chain.chainId, servedPaths: node.servedQueryPaths() },
    close: async () => {
      await replica.close();
      for (const file of [dir, `${dir}-lock`, ReplicaStamp.fileOf(dir)]) fs.rmSync(file, { recursive: true, force: true }); // lmdb-js makes the lock file beside the map
    },
  };
}

async function printAccounts(home: string): Promise<void> {
  const dev = await readDevAccountsHead(home, SHOWN_ACCOUNTS);
  if (!dev) return;
  const log = processLogger();
  log.info(`funded accounts (mnemonic: ${dev.mnemonic})`);
  for (const account of dev.accounts) log.info(`  ${account.hd_path}  ${account.address}`);
  if (dev.more) log.info("  ... and more in config/dev-accounts.json");
}
