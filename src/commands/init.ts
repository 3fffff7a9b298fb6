import fs from "node:fs";
import path from "node:path";
import { loadAppConfig, writeTopSettings } from "../config/appConfig.js";
import { loadNodeConfig } from "../config/nodeConfig.js";
import { ConfigError } from "../config/tomlConfig.js";
import { deriveAccounts, hdPath, newEd25519Key, newMnemonic } from "../codec/keys.js";
import { devGenesis } from "./devGenesis.js";
import { devAccountsPath, genesisPath, isInitialized, type DevAccounts } from "./home.js";
import { useNames } from "../names/activeNames.js";

export interface InitOptions {
  home: string;
  chainId: string;
  accounts: number;
  denom: string;
  /** Use this mnemonic instead of a new one (tests, reproducible chains). */
  mnemonic?: string;
  /** The naming profile written to app.toml (names.yaml; default "seed"). */
  names?: string;
  /** The bech32 prefix written to app.toml (default: app.toml's, "hub"). */
  prefix?: string;
  /** A genesis file to start from (an export) instead of the development genesis. */
  genesis?: string;
}

/**
 * Writes a new home: config/app.toml and config/config.toml with their
 * defaults, config/genesis.json, the validator and node keys, and the
 * funded development accounts (one mnemonic, account i at m/44'/118'/0'/0/i).
 */
/** The development genesis gives roles to accounts 0-3 (validator operator, delegator, HTLC parties, ...). */
const MIN_DEV_ACCOUNTS = 4;

export function initHome(options: InitOptions): DevAccounts {
  if (options.accounts < MIN_DEV_ACCOUNTS)
    throw new ConfigError(`--accounts must be at least ${MIN_DEV_ACCOUNTS}: the development genesis gives roles to accounts 0 to ${MIN_DEV_ACCOUNTS - 1}`);
  if (isInitialized(options.home)) throw new ConfigError(`${options.home} is already initialized (${genesisPath(options.home)} exists)`);
  const configDir = path.join(options.home, "config");
  fs.mkdirSync(configDir, { recursive: true });
  loadAppConfig(options.home);
  writeTopSettings(options.home, { names: options.names, "bech32-prefix": options.prefix });
  const app = loadAppConfig(options.home);
  const words = useNames(app.names);
  loadNodeConfig(options.home);
  const prefix = app["bech32-prefix"];
  const mnemonic = options.mnemonic ?? newMnemonic();
  const accounts = deriveAccounts(mnemonic, prefix, options.accounts);
  const validatorKey = newEd25519Key();
  writeKey(path.join(configDir, "priv_validator_key.json"), validatorKey, words.text("consensus/PubKeyEd25519"), words.text("consensus/PrivKeyEd25519"));
  writeKey(path.join(configDir, "node_key.json"), newEd25519Key(), undefined, words.text("consensus/PrivKeyEd25519"));
  if (options.genesis) {
    // the state is the file's; the dev accounts file still names the mnemonic's accounts (funded only if the file funds them)
    fs.copyFileSync(options.genesis, genesisPath(options.home));
  } else {
    const genesis = devGenesis({
      chainId: options.chainId,
      prefix,
      denom: options.denom,
      accounts: accounts.map((a) => ({ index: a.index, address: a.address, publicKey: a.publicKey })),
      consensusPublicKey: validatorKey.publicKey,
      genesisTime: new Date(),
    });
    fs.writeFileSync(genesisPath(options.home), JSON.stringify(genesis, null, 2) + "\n");
  }
  const dev: DevAccounts = { mnemonic, accounts: accounts.map((a) => ({ index: a.index, address: a.address, hd_path: hdPath(a.index) })) };
  fs.writeFileSync(devAccountsPath(options.home), JSON.stringify(dev, null, 2) + "\n", { mode: 0o600 });
  return dev;
}

function writeKey(file: string, key: ReturnType<typeof newEd25519Key>, publicType: string | undefined, privateType: string): void {
  const full = new Uint8Array([...key.privateKey, ...key.publicKey]); // the consensus engine stores seed‖public key
  const json: Record<string, unknown> = { address: key.address };
  if (publicType) json.pub_key = { type: publicType, value: Buffer.from(key.publicKey).toString("base64") };
  json.priv_key = { type: privateType, value: Buffer.from(full).toString("base64") };
  fs.writeFileSync(file, JSON.stringify(json, null, 2) + "\n", { mode: 0o600 });
}
