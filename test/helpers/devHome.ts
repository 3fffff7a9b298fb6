import { initHome } from "../../src/commands/init.js";
import type { DevAccounts } from "../../src/commands/home.js";

/**
 * What `chain-rest init --home HOME [--accounts N] [--mnemonic WORDS]` writes, by the same
 * function the command runs, in this process: a test whose subject is not `init` saves a CLI
 * process start (about a second of CPU) per home. The command's defaults: chain devnet-1, 10
 * accounts, denom uhub, the seed naming profile. (A cosmos-profile home stays a CLI `init`: the
 * naming profile is chosen once per process.)
 */
export function initDevHome(home: string, options: { accounts?: number; mnemonic?: string } = {}): DevAccounts {
  return initHome({ home, chainId: "devnet-1", accounts: options.accounts ?? 10, denom: "uhub", mnemonic: options.mnemonic });
}
