import { InvariantBrokenError } from "../node/export/invariants/invariant.js";
import fs from "node:fs";
import path from "node:path";
import { Codec } from "../codec/codec.js";
import { loadAppConfig } from "../config/appConfig.js";
import { ConfigError } from "../config/tomlConfig.js";
import { useNames } from "../names/activeNames.js";
import { ImportProgress } from "../node/genesisProgress.js";
import { storedGenesisFacts, type GenesisFacts } from "../node/genesisFacts.js";
import { NODE_MODULES } from "../node/modules/index.js";
import { allowedOperators, exportGenesis } from "../node/export/genesisExport.js";
import { StoreLockedError, VersionedStore } from "../node/store/versionedStore.js";

export interface ExportOptions {
  home: string;
  /** The height to export (default: the latest); it must still be kept. */
  height?: number;
  /** Write here instead of stdout. */
  output?: string;
  /** Withdraw all rewards and reset heights first, as appd export --for-zero-height. */
  forZeroHeight?: boolean;
  /** With forZeroHeight: jail every validator whose operator address is not listed. */
  jailAllowedAddrs?: string[];
}

/**
 * `chain-rest export`: the genesis of a stopped home's state at a kept height, as the real
 * `appd export` writes it. The store is opened as the node opens it, so a running node's home
 * is refused (LevelDB allows one process); stop the node first, as with the real export.
 */
export async function exportHome(options: ExportOptions): Promise<void> {
  const storeDir = path.join(options.home, "data", "state.db");
  // checked before app.toml is read, which would write a default one into a home that is not there
  if (!fs.existsSync(storeDir)) throw new ConfigError(`${storeDir} does not exist: nothing to export (start the node once, or init --genesis)`);
  const app = loadAppConfig(options.home);
  useNames(app.names); // before the proto tree loads
  const jailAllowedAddrs = options.jailAllowedAddrs ?? [];
  if (jailAllowedAddrs.length > 0 && !options.forZeroHeight) throw new ConfigError("--jail-allowed-addrs applies only with --for-zero-height");
  try {
    allowedOperators(jailAllowedAddrs, app["bech32-prefix"]); // a bad address is refused before the store opens
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const store = await openStopped(storeDir);
  try {
    const height = options.height ?? store.latestVersion;
    if (store.latestVersion === 0) throw new ConfigError(`${options.home} has no committed block to export`);
    if (height > store.latestVersion || height < store.earliestVersion) {
      throw new ConfigError(`--height ${height}: this home keeps heights ${store.earliestVersion} to ${store.latestVersion}`);
    }
    const facts = (await storedGenesisFacts(store)) as GenesisFacts | undefined;
    if (!facts?.chain_id) throw new ConfigError(`${options.home}: the store does not record its chain's genesis facts`);
    const progress = new ImportProgress((line) => process.stderr.write(line.replace(/^\[genesis\]/, "[export]") + "\n"));
    try {
      const { doc, missing } = await exportGenesis({
        state: store.reader(height),
        height,
        forZeroHeight: options.forZeroHeight,
        jailAllowedAddrs,
        facts: { ...facts, consensus_params: facts.consensus_params ?? {} },
        chain: { chainId: facts.chain_id, bech32Prefix: app["bech32-prefix"] },
        codec: new Codec(),
        modules: NODE_MODULES,
        progress,
      }).catch((err: unknown) => {
        // a broken invariant stops the export with its message, as the real one panics
        throw err instanceof InvariantBrokenError ? new ConfigError(err.message) : err;
      });
      if (missing.length > 0) process.stderr.write(`[export] not exported (no ExportGenesis yet): ${missing.join(", ")}\n`);
      const text = JSON.stringify(doc, null, 2) + "\n";
      if (options.output) fs.writeFileSync(options.output, text);
      else process.stdout.write(text);
    } finally {
      progress.close();
    }
  } finally {
    await store.close();
  }
}

async function openStopped(dir: string): Promise<VersionedStore> {
  try {
    return await VersionedStore.open(dir);
  } catch (err) {
    if (err instanceof StoreLockedError)
      throw new ConfigError(`${dir} is in use by a running node: stop it first (export reads a stopped home, as appd export does)`);
    throw err;
  }
}
