import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { encodeBech32Address } from "../../src/codec/bech32.js";
import { initHome } from "../../src/commands/init.js";
import { TEST_MNEMONIC } from "./devNode.js";
import { tempDir } from "./tempDir.js";

/**
 * Adds `count` funded accounts (random addresses, no keys) to the genesis of
 * an initialised home, keeping the bank supply consistent.
 */
export function addGenesisAccounts(home: string, count: number): void {
  const file = path.join(home, "config", "genesis.json");
  const genesis = JSON.parse(fs.readFileSync(file, "utf8"));
  const accounts = genesis.app_state.auth.accounts as Array<Record<string, unknown>>;
  const balances = genesis.app_state.bank.balances as Array<Record<string, unknown>>;
  let number = accounts.length;
  for (let i = 0; i < count; i++) {
    const address = encodeBech32Address("hub", randomBytes(20));
    accounts.push({ "@type": "/core.auth.v1beta1.BaseAccount", address, pub_key: null, account_number: String(number++), sequence: "0" });
    balances.push({ address, coins: [{ denom: "uhub", amount: "1000" }] });
  }
  genesis.app_state.bank.supply = []; // recomputed from the balances at genesis
  fs.writeFileSync(file, JSON.stringify(genesis));
}

/** A home whose genesis has lists over the 1 MiB the import parses (and checks and writes) a chunk at a time: 12,000 accounts. */
export function chunkedGenesisHome(): string {
  const home = path.join(tempDir(), "home");
  initHome({ home, chainId: "devnet-1", accounts: 4, denom: "uhub", mnemonic: TEST_MNEMONIC });
  addGenesisAccounts(home, 12_000);
  return home;
}

/** The message of the error `run` fails with (a test failure when it does not fail). */
export async function errorOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("no error");
}
