import type { Codec } from "../codec/codec.js";
import type { GenesisDoc, GenesisImporter } from "./genesis.js";
import { paramSubspacesOf, type AbciEvent, type ChainInfo, type ExecContext, type NodeModule, type ParamSubspaces } from "./modules/nodeModule.js";
import type { WritableLayer } from "./store/cacheLayer.js";
import { EMPTY_STATE, GenesisLayer } from "./store/genesisLayer.js";
import { ModuleStore } from "./store/moduleStore.js";
import { GasMeter } from "./tx/gasMeter.js";

/** What a module's context needs of the node: the chain, the codec, the parameter subspaces. */
export interface ContextBase {
  chain: ChainInfo;
  codec: Codec;
  paramSubspaces: ParamSubspaces;
}

/** A module's context over `layer` at `height` and `time`, its events added to `events`. */
export function execContextOver(layer: WritableLayer, module: string, base: ContextBase, height: number, time: Date, events: AbciEvent[]): ExecContext {
  return {
    chain: base.chain,
    codec: base.codec,
    height,
    time,
    gas: new GasMeter(),
    store: new ModuleStore(layer, module),
    storeOf: (name) => new ModuleStore(layer, name),
    emit: (event) => events.push(event),
    paramSubspaces: base.paramSubspaces,
  };
}

/**
 * A first start's importer: the modules with a genesisImport write into `layer` (over the empty
 * state of a store that has never committed) while the genesis is decoded; the rest of the
 * import writes into the same layer, which becomes block 1.
 */
export class LayerImporter implements GenesisImporter {
  layer = new GenesisLayer(EMPTY_STATE);
  private readonly paramSubspaces: ParamSubspaces;

  constructor(
    modules: readonly NodeModule[],
    private readonly codec: Codec,
    private readonly bech32Prefix: string,
  ) {
    this.paramSubspaces = paramSubspacesOf(modules);
  }

  context(module: string, doc: GenesisDoc): ExecContext {
    const base = { chain: { chainId: doc.chain_id, bech32Prefix: this.bech32Prefix }, codec: this.codec, paramSubspaces: this.paramSubspaces };
    return execContextOver(this.layer, module, base, 1, new Date(doc.genesis_time), []);
  }

  restart(): void {
    this.layer = new GenesisLayer(EMPTY_STATE);
  }
}
