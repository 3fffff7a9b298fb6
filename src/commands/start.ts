import { Codec } from "../codec/codec.js";
import { loadAppConfig } from "../config/appConfig.js";
import { loadNodeConfig } from "../config/nodeConfig.js";
import { parseDurationSetting } from "../config/tomlConfig.js";
import { EmbeddedNode } from "../node/embeddedNode.js";
import { InProcessClient } from "../node/inProcessClient.js";
import { startRpcServer } from "../node/rpc/rpcServer.js";
import type { RunningServer } from "../util/runningServer.js";
import { isInitialized, readDevAccounts } from "./home.js";
import { initHome } from "./init.js";
import { startRestServer } from "./restServer.js";
import { onShutdown } from "./shutdown.js";
import { useNames } from "../names/activeNames.js";
import { txServiceQueries } from "./serviceQueries.js";
import { startFaucet } from "../faucet/startFaucet.js";

export interface StartOptions {
  home: string;
  apiAddress?: string;
  rpcLaddr?: string;
}

const SHOWN_ACCOUNTS = 10;

/** Runs the embedded node, its JSON-RPC and (when api.enable) the REST server, until SIGINT/SIGTERM. */
export async function start(options: StartOptions): Promise<void> {
  if (!isInitialized(options.home)) {
    console.log(`initializing a new development chain in ${options.home}`);
    initHome({ home: options.home, chainId: "devnet-1", accounts: 10, denom: "uhub" });
  }
  const app = loadAppConfig(options.home);
  const nodeConfig = loadNodeConfig(options.home);
  if (options.apiAddress) app.api.address = options.apiAddress;
  if (options.rpcLaddr) nodeConfig.rpc.laddr = options.rpcLaddr;

  useNames(app.names); // before the proto tree and the tables load
  const codec = new Codec();
  const node = await EmbeddedNode.open({
    home: options.home,
    bech32Prefix: app["bech32-prefix"],
    keepRecent: app["pruning-keep-recent"],
    moniker: nodeConfig.moniker,
    minimumGasPrices: app["minimum-gas-prices"],
    codec,
  });
  const client = new InProcessClient(node);
  for (const { path, handler } of txServiceQueries(codec, client, app["bech32-prefix"])) node.serveQuery(path, handler);
  const servers: RunningServer[] = [];
  let blockTimer: NodeJS.Timeout | undefined;
  onShutdown(async () => {
    clearInterval(blockTimer);
    await Promise.all(servers.map((s) => s.close()));
    await node.close();
  });

  const rpc = await startRpcServer(node, client, nodeConfig.rpc.laddr);
  servers.push(rpc);
  client.rpcListensAt(rpc.url.replace(/^http:/, "tcp:"));
  const rest = app.api.enable ? await startRestServer(app.api, app["bech32-prefix"], client, codec) : undefined;
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
        .catch((err: unknown) => console.error("[node] block production failed:", err))
        .finally(() => (producing = false));
    }, interval);
  }

  console.log(`chain ${node.chain.chainId} at height ${node.height} (home ${options.home})`);
  printAccounts(options.home);
  console.log(rest ? `REST server: ${rest.url}` : "REST server: disabled (api.enable = false)");
  console.log(`node RPC:    ${rpc.url}`);
  if (faucet) console.log(`faucet:      ${faucet.url}`);
}

function printAccounts(home: string): void {
  const dev = readDevAccounts(home);
  if (!dev) return;
  console.log(`funded accounts (mnemonic: ${dev.mnemonic})`);
  for (const account of dev.accounts.slice(0, SHOWN_ACCOUNTS)) console.log(`  ${account.hd_path}  ${account.address}`);
  if (dev.accounts.length > SHOWN_ACCOUNTS) console.log(`  ... and ${dev.accounts.length - SHOWN_ACCOUNTS} more in config/dev-accounts.json`);
}
