import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import type { AbciQueryResponse } from "../client/chainClient.js";
import { Codec } from "../codec/codec.js";
import { abciError, abciQueryFailure, SdkError } from "./abci/abciResult.js";
import { QueryRouter } from "./abci/queryRouter.js";
import { blockHash, getBlockMeta, nextAppHash, putBlockMeta, type BlockMeta } from "./chain/blockStore.js";
import { readGenesis, type GenesisDoc } from "./genesis.js";
import { NODE_MODULES } from "./modules/index.js";
import type { ChainInfo, ExecContext, NodeModule, QueryContext } from "./modules/nodeModule.js";
import { ModuleReader, ModuleStore, utf8 } from "./store/moduleStore.js";
import { CacheLayer } from "./store/cacheLayer.js";
import { GasMeter } from "./tx/gasMeter.js";
import { VersionedStore } from "./store/versionedStore.js";

export interface NodeOptions {
  home: string;
  bech32Prefix: string;
  /** How many recent heights stay queryable. */
  keepRecent: number;
  moniker: string;
  codec?: Codec;
}

const CHAIN_KEY = utf8("chain");

/**
 * The embedded development node: module state in a versioned LevelDB store,
 * loaded from genesis.json on first start and resumed on later starts, with
 * ABCI-style queries at any kept height.
 */
export class EmbeddedNode {
  private closing = false;

  private constructor(
    readonly store: VersionedStore,
    readonly codec: Codec,
    readonly chain: ChainInfo,
    readonly genesisTime: string,
    readonly moniker: string,
    private readonly modules: NodeModule[],
    private readonly router: QueryRouter,
    private readonly keepRecent: number,
  ) {}

  /** Opens the node's store under {home}/data; a fresh store is initialised from {home}/config/genesis.json as block 1. */
  static async open(options: NodeOptions): Promise<EmbeddedNode> {
    const codec = options.codec ?? new Codec();
    const modules = NODE_MODULES;
    const genesisFile = path.join(options.home, "config", "genesis.json");
    // Validate before opening the store: a bad genesis must leave the store untouched.
    const genesis = readGenesis(genesisFile, modules, codec, { bech32Prefix: options.bech32Prefix });
    const store = await VersionedStore.open(path.join(options.home, "data", "state.db"));
    try {
      const chain = { chainId: genesis.doc.chain_id, bech32Prefix: options.bech32Prefix };
      const node = new EmbeddedNode(store, codec, chain, genesis.doc.genesis_time, options.moniker, modules, new QueryRouter(modules, codec), options.keepRecent);
      if (store.latestVersion === 0) await node.initChain(genesis.doc, genesis.states);
      else await node.checkSameChain(genesis.doc);
      return node;
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  get height(): number {
    return this.store.latestVersion;
  }

  async latestBlock(): Promise<BlockMeta> {
    return (await getBlockMeta(this.store, this.height))!;
  }

  blockMeta(height: number): Promise<BlockMeta | undefined> {
    return getBlockMeta(this.store, height);
  }

  /** Answers an ABCI query: path = full proto method name, data = protobuf request. Never throws. */
  async query(queryPath: string, data: Uint8Array, height = 0): Promise<AbciQueryResponse> {
    const latest = this.height;
    const at = height === 0 ? latest : height;
    if (!this.router.has(queryPath)) return abciError(SdkError.unknownRequest, `unknown query path: no handler for ${queryPath}`, at);
    if (at > latest || at < this.store.earliestVersion) {
      return abciError(SdkError.invalidHeight, `cannot query at height ${at}: this node keeps heights ${this.store.earliestVersion} to ${latest}`, at);
    }
    try {
      const state = this.store.reader(at);
      const context = (module: NodeModule): QueryContext => ({
        chain: this.chain,
        codec: this.codec,
        height: at,
        store: new ModuleReader(state, module.name),
        storeOf: (name) => new ModuleReader(state, name),
      });
      const value = await this.router.query(queryPath, data, context);
      return { code: 0, codespace: "", log: "", value, height: at };
    } catch (err) {
      return abciQueryFailure(err, at);
    }
  }

  /** Commits the next block (empty for now: transactions come with the tx issue). */
  async produceBlock(time = new Date()): Promise<BlockMeta> {
    const batch = this.store.begin();
    return this.commit(batch, time, new Uint8Array(32), 0);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.store.close();
  }

  private async initChain(doc: GenesisDoc, states: Map<string, Record<string, unknown>>): Promise<void> {
    const batch = this.store.begin();
    const layer = new CacheLayer(this.store.reader(0));
    const time = new Date(doc.genesis_time);
    for (const module of this.modules) {
      const ctx: ExecContext = {
        chain: this.chain,
        codec: this.codec,
        height: 1,
        time,
        gas: new GasMeter(0),
        store: new ModuleStore(layer, module.name),
        storeOf: (name) => new ModuleStore(layer, name),
        emit: () => undefined, // genesis events are not recorded
      };
      await module.initGenesis(states.get(module.name) ?? {}, ctx);
    }
    layer.commitTo(batch);
    batch.putMeta(CHAIN_KEY, utf8(JSON.stringify({ chain_id: doc.chain_id, genesis_time: doc.genesis_time })));
    const digest = sha256(utf8(JSON.stringify(doc.app_state ?? {})));
    await this.commit(batch, new Date(doc.genesis_time), digest, 0);
  }

  private async commit(batch: ReturnType<VersionedStore["begin"]>, time: Date, writesDigest: Uint8Array, numTxs: number): Promise<BlockMeta> {
    const previous = this.height > 0 ? await getBlockMeta(this.store, this.height) : undefined;
    const height = batch.version;
    const blockTime = previous && time.getTime() <= Date.parse(previous.time) ? new Date(Date.parse(previous.time) + 1) : time;
    const appHash = nextAppHash(previous?.appHash ?? "", writesDigest);
    const iso = blockTime.toISOString();
    const meta: BlockMeta = { height, time: iso, appHash, hash: blockHash(this.chain.chainId, height, iso, appHash), numTxs };
    putBlockMeta(batch, meta);
    await this.store.commit(batch);
    await this.store.prune(height - this.keepRecent + 1);
    return meta;
  }

  private async checkSameChain(doc: GenesisDoc): Promise<void> {
    const stored = await this.store.getMeta(CHAIN_KEY);
    const chainId = stored ? (JSON.parse(new TextDecoder().decode(stored)) as { chain_id: string }).chain_id : undefined;
    if (chainId !== doc.chain_id) {
      throw new Error(`the store under data/ belongs to chain ${chainId ?? "(unknown)"}, but genesis.json is for ${doc.chain_id}; remove data/ to start the new chain`);
    }
  }
}
