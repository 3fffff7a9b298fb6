import fs from "node:fs";
import path from "node:path";
import { initHome } from "../src/commands/init.js";
import { addGenesisAccounts } from "../test/helpers/largeGenesis.js";
import { TEST_MNEMONIC } from "../test/helpers/devNode.js";
import { get, startChainRest } from "./benchTools.js";

/** How long the first start (the genesis import) may take on a loaded machine. */
const IMPORT_LIMIT_MS = 30 * 60_000;

export interface BenchHome {
  home: string;
  /** The funded accounts without keys that addGenesisAccounts wrote. */
  addresses: string[];
  /** Accounts 0..keyed-1 of TEST_MNEMONIC, funded. */
  keyed: number;
}

/** Replaces `from` by `to` in one of the home's config files. */
export function editConfig(home: string, file: string, from: string, to: string): void {
  const full = path.join(home, "config", file);
  fs.writeFileSync(full, fs.readFileSync(full, "utf8").replace(from, to));
}

/**
 * A home with `keyed` accounts of TEST_MNEMONIC and `extra` random funded
 * accounts, imported, with a few empty blocks made after genesis (so that
 * earlier heights exist), and empty blocks switched off for the measurements.
 */
export async function prepareHome(dir: string, extra: number, keyed = 50, blocks = 5): Promise<BenchHome> {
  const home = path.join(dir, `home-${extra}`);
  initHome({ home, chainId: "devnet-1", accounts: keyed, denom: "uhub", mnemonic: TEST_MNEMONIC });
  if (extra > 0) addGenesisAccounts(home, extra);
  // the rows measure the server, not a log line per request (api.log-requests "auto" is on for start)
  editConfig(home, "app.toml", 'log-requests = "auto"', 'log-requests = "off"');
  editConfig(home, "config.toml", "create_empty_blocks = false", "create_empty_blocks = true");
  editConfig(home, "config.toml", 'create_empty_blocks_interval = "1s"', 'create_empty_blocks_interval = "100ms"');
  const started = await startChainRest(home, IMPORT_LIMIT_MS);
  let height = 0;
  while (height < blocks) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    height = Number(JSON.parse((await get(`${started.rpcUrl}/status`)).body).result.sync_info.latest_block_height);
  }
  await started.node.stop();
  editConfig(home, "config.toml", "create_empty_blocks = true", "create_empty_blocks = false");
  const genesis = JSON.parse(fs.readFileSync(path.join(home, "config", "genesis.json"), "utf8")) as {
    app_state: { bank: { balances: Array<{ address: string }> } };
  };
  const addresses = extra > 0 ? genesis.app_state.bank.balances.map((b) => b.address).slice(-extra) : [];
  return { home, addresses, keyed };
}
