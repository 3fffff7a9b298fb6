import type { Codec } from "../../codec/codec.js";
import { bech32Prefixes, consensusAddressBytes } from "../../codec/addresses.js";
import { bech32Bytes } from "../modules/shared/msgAddresses.js";
import type { JsonValue, ProtoMessage } from "../../codec/json/renderProto3.js";
import { names } from "../../names/activeNames.js";
import type { GenesisDoc } from "../genesis.js";
import type { GenesisFacts } from "../genesisFacts.js";
import type { ImportProgress } from "../genesisProgress.js";
import type { ChainInfo, ExecContext, ExportContext, NodeModule } from "../modules/nodeModule.js";
import { paramSubspacesOf } from "../modules/nodeModule.js";
import { ModuleReader, ModuleStore } from "../store/moduleStore.js";
import { CacheLayer, type FullKeyReader } from "../store/cacheLayer.js";
import { GasMeter } from "../tx/gasMeter.js";
import { prepForZeroHeight } from "./zeroHeight.js";
import { assertInvariants } from "./invariants/invariant.js";
import { REGISTERED_INVARIANTS } from "./invariants/index.js";

/** What `export` writes: the genesis document of the real `appd export` (a Tendermint GenesisDoc). */
export interface ExportedGenesis extends GenesisDoc {
  genesis_time: string;
  chain_id: string;
  initial_height: string;
  consensus_params: Record<string, unknown>;
  validators: Array<{ address: string; pub_key: { type: string; value: string }; power: string; name: string }>;
  app_hash: string;
  app_state: Record<string, JsonValue>;
}

export interface ExportInput {
  state: FullKeyReader;
  height: number;
  /** --for-zero-height: prepForZeroHeightGenesis first (on a layer never committed), and initial_height 0. */
  forZeroHeight?: boolean;
  /** With forZeroHeight: when not empty, every validator whose operator is not listed is jailed. */
  jailAllowedAddrs?: string[];
  facts: GenesisFacts;
  chain: ChainInfo;
  codec: Codec;
  modules: NodeModule[];
  progress?: ImportProgress;
}

/**
 * Every module's ExportGenesis at `height`, in genesis order, rendered as the proto3 JSON its
 * InitGenesis reads; the validators the staking module decides at that height; and the new
 * chain's initial height (the exported height + 1, as the real export sets it). Gives the
 * modules that have no export, which are left out of app_state.
 */
export async function exportGenesis(input: ExportInput): Promise<{ doc: ExportedGenesis; missing: string[] }> {
  const { height, codec, modules, progress } = input;
  const paramSubspaces = paramSubspacesOf(modules);
  let state: FullKeyReader = input.state;
  const readerContext = (name: string, over: FullKeyReader): ExportContext => ({
    chain: input.chain,
    codec,
    height,
    store: new ModuleReader(over, name),
    storeOf: (other) => new ModuleReader(over, other),
    paramSubspaces,
    forZeroHeight: input.forZeroHeight === true,
  });
  /** Modules that write to `layer` (never committed), as at the exported height. */
  const execContexts =
    (layer: CacheLayer) =>
    (name: string): ExecContext => ({
      chain: input.chain,
      codec,
      height,
      time: new Date(input.facts.genesis_time),
      gas: new GasMeter(),
      store: new ModuleStore(layer, name),
      storeOf: (other) => new ModuleStore(layer, other),
      emit: () => undefined,
      paramSubspaces,
    });
  if (input.forZeroHeight) {
    // "just to be safe, assert the invariants on current state" (the app's prepForZeroHeightGenesis)
    progress?.begin("asserting the registered invariants", "invariants", 1);
    const over = input.state;
    await assertInvariants(REGISTERED_INVARIANTS, { ...readerContext("crisis", over), scratch: () => execContexts(new CacheLayer(over)) });
    progress?.advance();
    progress?.end();
    const layer = new CacheLayer(input.state);
    progress?.begin("preparing for a zero-height genesis (withdrawing rewards and commission, resetting heights)", "steps", 1);
    await prepForZeroHeight(execContexts(layer), allowedOperators(input.jailAllowedAddrs ?? [], input.chain.bech32Prefix));
    progress?.advance();
    progress?.end();
    state = layer;
  }
  const context = (module: NodeModule): ExportContext => readerContext(module.name, state);
  // Modules that share a store and an app_state key (IBC's client, connection and channel) each export their part.
  const exported = new Map<string, { module: NodeModule; state: ProtoMessage | null }>();
  const missing: string[] = [];
  progress?.begin(`exporting the modules' state at height ${height}`, "modules", modules.length);
  for (const module of modules) {
    if (!module.exportGenesis) {
      missing.push(module.name);
    } else {
      const state = await module.exportGenesis(context(module));
      const before = exported.get(module.name)?.state;
      exported.set(module.name, { module, state: state === null ? null : { ...(before ?? {}), ...state } });
    }
    progress?.advance();
  }
  const appState: Record<string, JsonValue> = {};
  for (const [name, { module, state }] of exported) appState[name] = state === null ? null : codec.renderer.render(codec.type(module.genesisType), state);
  progress?.end();
  const doc: ExportedGenesis = {
    genesis_time: input.facts.genesis_time,
    chain_id: input.facts.chain_id,
    // the real export: the height the next chain starts at, 0 for a zero-height genesis
    initial_height: input.forZeroHeight ? "0" : String(height + 1),
    consensus_params: input.facts.consensus_params,
    validators: await genesisValidators(modules, context, appState),
    app_hash: "",
    app_state: appState,
  };
  return { doc, missing };
}

/** staking's WriteValidators: the bonded validators with their consensus address, key, power and moniker. */
async function genesisValidators(
  modules: NodeModule[],
  context: (module: NodeModule) => ExportContext,
  appState: Record<string, JsonValue>,
): Promise<ExportedGenesis["validators"]> {
  const staking = modules.find((m) => m.validatorSet !== undefined);
  if (!staking) return [];
  const ctx = context(staking);
  const monikers = monikersByKey(appState[staking.name]);
  return (await staking.validatorSet!(ctx.store, ctx)).map(({ publicKey, power }) => {
    const address = Buffer.from(consensusAddressBytes(publicKey)).toString("hex").toUpperCase();
    return {
      address,
      pub_key: { type: names().text("consensus/PubKeyEd25519"), value: Buffer.from(publicKey).toString("base64") },
      power: power.toString(),
      name: monikers.get(Buffer.from(publicKey).toString("base64")) ?? "",
    };
  });
}

/** The exported validators' monikers by consensus key (base64), as the staking genesis lists them. */
function monikersByKey(staking: JsonValue | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const validators = (staking as { validators?: Array<{ consensus_pubkey?: { key?: string }; description?: { moniker?: string } }> } | null)?.validators;
  for (const v of validators ?? []) if (v.consensus_pubkey?.key) out.set(v.consensus_pubkey.key, v.description?.moniker ?? "");
  return out;
}

/** --jail-allowed-addrs: operator addresses (valoper); a bad one refuses the export, as the real one does. */
export function allowedOperators(addrs: string[], bech32Prefix: string): Uint8Array[] {
  const prefix = bech32Prefixes(bech32Prefix).validatorOperator;
  return addrs.map((addr) => {
    try {
      return bech32Bytes(addr, prefix);
    } catch (err) {
      throw new Error(`--jail-allowed-addrs: ${JSON.stringify(addr.slice(0, 100))} is not a validator operator address: ${(err as Error).message}`);
    }
  });
}
