import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const DEFAULT_HOME = path.join(os.homedir(), ".chain-rest");

export function resolveHome(home: string | undefined): string {
  return path.resolve(home ?? DEFAULT_HOME);
}

export const genesisPath = (home: string) => path.join(home, "config", "genesis.json");
export const devAccountsPath = (home: string) => path.join(home, "config", "dev-accounts.json");

export function isInitialized(home: string): boolean {
  return fs.existsSync(genesisPath(home));
}

/** The funded development accounts that `init` wrote: one mnemonic, account i at m/44'/118'/0'/0/i. */
export interface DevAccounts {
  mnemonic: string;
  accounts: Array<{ index: number; address: string; hd_path: string }>;
}

export function readDevAccounts(home: string): DevAccounts | undefined {
  const file = devAccountsPath(home);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as DevAccounts) : undefined;
}
