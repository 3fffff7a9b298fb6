import { putFirstIndexes } from "./indexes/firstIndexes.js";
import { putIndexWrites, removeEarlierAmounts } from "./indexes/indexWrites.js";
import { warnIfNoIndexes } from "./indexes/indexReader.js";
import { indexesComplete, indexRebuildWrites } from "./indexes/indexRebuild.js";
import type { StateWrite } from "./indexes/indexWrites.js";
import { EventEmitter } from "node:events";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { AbciQueryResponse, MessageQueryResponse } from "../client/chainClient.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { Codec } from "../codec/codec.js";
import { AminoJsonRenderer } from "../codec/amino/aminoJson.js";
import { aminoTransforms } from "../tables/aminoTransforms.js";
import { abciError, SdkError } from "./abci/abciResult.js";
import { ModuleQueries } from "./abci/moduleQueries.js";
import { QueryRouter } from "./abci/queryRouter.js";
import { answerBaseappQuery, type BaseappHandlers } from "./abci/baseappQuery.js";
import { answerCustomQuery } from "./abci/customQueriers.js";
import { StoreQuery } from "./abci/storeQuery.js";
import { buildCommittedHeight } from "./chain/blockBuilder.js";
import {
  committedHeightKeys,
  getAppHash,
  getBlock,
  getBlockResults,
  getCommit,
  getValidators,
  nextAppHash,
  nextAppHashInSteps,
  putCommittedHeight,
  type CommittedHeight,
} from "./chain/blockStore.js";
import { Mempool, type Inclusion, type PendingTx } from "./chain/mempool.js";
import { BLOCK_WRITE_RETRY_MS, BlocksNotWrittenError, blockWriteFailureReason } from "./chain/blockWriteFailure.js";
import { SerialQueue } from "./chain/serialQueue.js";
import { DevClock } from "./chain/devClock.js";
import { Snapshots, UnknownSnapshotError } from "./chain/snapshots.js";
import { eventIndexCurrent, indexAgain, indexBlock, markEventIndexCurrent, unindexBlocks } from "./chain/txIndex.js";
import { loadNodeId, loadValidatorKey, type ValidatorKey } from "./chain/validatorKey.js";
import { genesisEntries, readGenesis, type GenesisDoc, type ParsedGenesis } from "./genesis.js";
import { ImportProgress, type ProgressLog } from "./genesisProgress.js";
import { execContextOver, LayerImporter } from "./genesisImporter.js";
import { genesisFactsOf, putGenesisFacts, resumedGenesisFacts, type GenesisFacts } from "./genesisFacts.js";
import { BEGIN_BLOCK_ORDER, END_BLOCK_ORDER, NODE_MODULES } from "./modules/index.js";
import {
  paramSubspacesOf,
  type AnteCheck,
  type AbciEvent,
  type BlockInfo,
  type ChainInfo,
  type ExecContext,
  type MsgRoute,
  type NodeModule,
  type ParamSubspaces,
} from "./modules/nodeModule.js";
import { CacheLayer, type FullKeyReader, type WritableLayer } from "./store/cacheLayer.js";
import { GenesisLayer } from "./store/genesisLayer.js";
import { ModuleReader } from "./store/moduleStore.js";
import { VersionedStore, type StateBatch } from "./store/versionedStore.js";
import { decodeTx, type DecodedTx } from "./tx/decodeTx.js";
import { runTx, type TxEnvironment, type TxOutcome } from "./tx/runTx.js";
import { parseMinGasPrices, type MinGasPrice } from "./tx/minGasPrices.js";
import { appSimulate, simulateQuery } from "./tx/simulate.js";
import { profileTypeUrl } from "../codec/typeRegistry.js";
import { attachFork } from "./fork/attachFork.js";
import { fundForkAccounts } from "./fork/forkFunding.js";
import { bondForkValidator } from "./fork/forkValidator.js";
import { putForkPoint, type ForkOptions, type ForkPoint, type FundEntry } from "./fork/forkPoint.js";
import { processLogger } from "../telemetry/processLogger.js";

export interface NodeOptions {
  home: string;
  bech32Prefix: string;
  /** How many recent heights stay queryable. */
  keepRecent: number;
  moniker: string;
  /** app.toml minimum-gas-prices, e.g. "0.025uhub". */
  minimumGasPrices?: string;
  codec?: Codec;
  /** Where a first start's genesis import prints its progress lines (none when absent). */
  importProgress?: ProgressLog;
  /** The longest wait between two progress lines while the import advances (default 2000 ms; 0: a line at each step, for tests). */
  importProgressEveryMs?: number;
  /** start --fork: the state at the remote's height under this node's own (src/node/fork/). */
  fork?: ForkOptions;
}

/** How long a block's commit took: the atomic write of its batch. */
export interface BlockTiming {
  commitSeconds: number;
}

/**
 * The embedded development node: module state in a versioned LevelDB store,
 * loaded from genesis.json on first start and resumed from the store on later starts
 * (which read of genesis.json only its hash, genesisFacts.ts);
 * transactions checked into a mempool and executed in blocks; ABCI-style
 * queries at any kept height. Events: "commit" (height) as soon as a block's state is
 * written, "pruned" (height) when the heights it made too old can no longer be read,
 * "block" (CommittedHeight, BlockTiming) once the commit is complete,
 * "reverted" (height) when a revert made that height the latest again.
 */
export class EmbeddedNode extends EventEmitter {
  readonly mempool = new Mempool();
  private readonly queue = new SerialQueue();
  private readonly routes: Map<string, MsgRoute>;
  private readonly paramSubspaces: ParamSubspaces;
  private readonly anteChecks: AnteCheck[];
  private readonly amino: AminoJsonRenderer;
  private checkLayer: CacheLayer;
  private readonly storeQuery: StoreQuery;
  private readonly moduleQueries: ModuleQueries;
  private closing = false;
  private blockScheduled = false;
  /** Why the last block could not be written; broadcasts are refused until a block is written again. */
  private blockWriteFailure: string | undefined;
  /** Why the node stopped committing for good: its store does not hold what it acknowledged. */
  private storeLost: string | undefined;
  private blockWriteRetry: NodeJS.Timeout | undefined;
  /** Block times: the wall clock moved on by advance_time. */
  readonly clock = new DevClock();
  /** false: transactions wait in the mempool until advanceBlocks (the run-time switch of automatic blocks). */
  private autoBlocksOn = true;
  /** The last block this node committed, which the next block builds on (saves reading it back: five reads a block). */
  private lastCommitted: { height: number; record: CommittedHeight } | undefined;
  /** Snapshots of the dev chain (snapshot/revert); pruning keeps the heights they need. */
  readonly snapshots = new Snapshots();
  /** Set when this node is a fork of a remote chain: its first height is the remote's forked height. */
  forkPoint: ForkPoint | undefined;
  /** The derived indexes of the latest state, built at start for a home without them: written with the next block. */
  private indexRebuild: StateWrite[] | undefined;

  private constructor(
    readonly store: VersionedStore,
    readonly codec: Codec,
    readonly chain: ChainInfo,
    /** What the node keeps of its genesis: chain id, genesis time, consensus params. */
    readonly genesis: GenesisFacts,
    private readonly genesisFile: string,
    readonly moniker: string,
    readonly validatorKey: ValidatorKey,
    readonly nodeId: string,
    private readonly modules: NodeModule[],
    router: QueryRouter,
    private readonly keepRecent: number,
    private readonly minGasPrices: MinGasPrice[],
  ) {
    super();
    this.routes = new Map(modules.flatMap((m) => Object.entries(m.messages ?? {})));
    this.paramSubspaces = paramSubspacesOf(modules);
    this.moduleQueries = new ModuleQueries(router, chain, codec, this.paramSubspaces);
    this.anteChecks = modules.flatMap((m) => (m.anteCheck ? [m.anteCheck] : []));
    this.amino = new AminoJsonRenderer(codec.root, aminoTransforms());
    this.checkLayer = new CacheLayer(store.reader());
    this.storeQuery = new StoreQuery({
      moduleNames: [...new Set(modules.map((m) => m.name))],
      paramSubspaces: this.paramSubspaces,
      context: { chain, codec },
      stateAt: (height) => (height > this.height || height < this.store.earliestVersion ? undefined : this.store.reader(height, { keepsReads: true })),
    });
  }

  /**
   * Opens the node's store under {home}/data. A new store is initialised from
   * {home}/config/genesis.json as block 1; a store already started needs of the file
   * only that its hash be the one it was started from.
   */
  static async open(options: NodeOptions): Promise<EmbeddedNode> {
    const codec = options.codec ?? new Codec();
    const modules = NODE_MODULES;
    const genesisFile = path.join(options.home, "config", "genesis.json");
    const storeDir = path.join(options.home, "data", "state.db");
    const progress = options.importProgress ? new ImportProgress(options.importProgress, options.importProgressEveryMs) : undefined;
    const readWhole = (importer?: LayerImporter) => readGenesis(genesisFile, modules, codec, { bech32Prefix: options.bech32Prefix }, progress, importer);
    try {
      return await EmbeddedNode.openWith(options, codec, modules, genesisFile, storeDir, readWhole, progress);
    } finally {
      progress?.close();
    }
  }

  private static async openWith(
    options: NodeOptions,
    codec: Codec,
    modules: NodeModule[],
    genesisFile: string,
    storeDir: string,
    readWhole: (importer?: LayerImporter) => Promise<ParsedGenesis>,
    progress: ImportProgress | undefined,
  ): Promise<EmbeddedNode> {
    // A new chain's genesis is validated before the store exists: a bad one leaves no store behind.
    // auth and bank are written as they are decoded, into the importer's in-memory layer.
    const importer = new LayerImporter(modules, codec, options.bech32Prefix);
    let genesis = fs.existsSync(storeDir) || options.fork ? undefined : await readWhole(importer);
    const minGasPrices = parseMinGasPrices(options.minimumGasPrices ?? "");
    const key = loadValidatorKey(options.home);
    const store = await VersionedStore.open(storeDir, genesis ? { writeBufferSize: IMPORT_WRITE_BUFFER } : {});
    try {
      const fork = await attachFork(store, options.fork, modules, { chain: { chainId: "", bech32Prefix: options.bech32Prefix }, codec });
      if (store.latestVersion === 0 && !genesis) {
        if (!fork) genesis = await readWhole(importer); // a store opened before but never committed: an import cut short
        await store.clear();
      }
      const facts = fork?.fresh
        ? forkGenesisFacts(await readWhole(), fork.point, options.fork?.chainId)
        : genesis
          ? genesisFactsOf(genesis.doc, genesis.sha256)
          : await resumedGenesisFacts(store, genesisFile, readWhole);
      const node = new EmbeddedNode(
        store,
        codec,
        { chainId: facts.chain_id, bech32Prefix: options.bech32Prefix },
        facts,
        genesisFile,
        options.moniker,
        key,
        loadNodeId(options.home),
        modules,
        new QueryRouter(modules, codec),
        options.keepRecent,
        minGasPrices,
      );
      node.forkPoint = fork?.point;
      if (fork?.fresh) await node.initFork(fork.point, options.fork?.fund ?? [], options.fork?.validatorOperator);
      else if (genesis) await node.initChain(genesis, importer.layer, progress);
      if (!(await eventIndexCurrent(store))) await indexAgain(store, store.latestVersion);
      if (node.forkPoint === undefined && store.latestVersion > 0 && !(await indexesComplete(store.reader()))) {
        node.indexRebuild = await indexRebuildWrites(store.reader(), codec, progress ?? new ImportProgress((line) => processLogger().info(line)));
        processLogger().info(
          `[node] the derived indexes of height ${store.latestVersion} are built; they are written with the next block, and heights before it keep answering without them`,
        );
      } else await warnIfNoIndexes(store, node.forkPoint !== undefined);
      const last = await getBlock(store, store.latestVersion);
      if (last) node.clock.catchUp(new Date(last.block.header.time));
      return node;
    } catch (err) {
      await store.close();
      throw err;
    }
  }

  /** The genesis document (the RPC's `genesis`), read from the file when asked: the node does not keep it. */
  async genesisDocument(): Promise<GenesisDoc> {
    return JSON.parse(await fs.promises.readFile(this.genesisFile, "utf8")) as GenesisDoc;
  }

  get height(): number {
    return this.store.latestVersion;
  }

  /** The committed record of a height (block, commit, results, validators). */
  async committed(height: number): Promise<CommittedHeight | undefined> {
    const block = await getBlock(this.store, height);
    if (!block) return undefined;
    return {
      block,
      commit: (await getCommit(this.store, height))!,
      results: (await getBlockResults(this.store, height))!,
      validators: (await getValidators(this.store, height))!,
      appHash: await getAppHash(this.store, height),
    };
  }

  /**
   * ABCI query handlers given where the node is assembled, by path: the tx service's
   * GetTx and GetTxsEvent, which a real node answers as ABCI queries too, built on the node's RPC results.
   */
  private readonly servedQueries = new Map<string, (data: Uint8Array, height: number) => Promise<AbciQueryResponse>>();

  serveQuery(path: string, handler: (data: Uint8Array, height: number) => Promise<AbciQueryResponse>): void {
    this.servedQueries.set(path, handler);
  }

  /** Answers an ABCI query: path = full proto method name, data = protobuf request. Never throws. */
  async query(queryPath: string, data: Uint8Array, height = 0): Promise<AbciQueryResponse> {
    const latest = this.height;
    const at = height === 0 ? latest : height;
    if (queryPath === profileTypeUrl(SIMULATE_PATH)) return this.simulate(data, at);
    const served = this.servedQueries.get(queryPath);
    if (served) return served(data, at);
    if (!this.moduleQueries.has(queryPath)) return answerBaseappQuery(queryPath, data, at, this.baseapp);
    return this.keptHeightRefusal(at) ?? this.moduleQueries.query(queryPath, data, this.store.reader(at, { keepsReads: true }), at);
  }

  /** The paths this node answers with handlers given where it is assembled (serveQuery), not the modules'. */
  servedQueryPaths(): string[] {
    return [...this.servedQueries.keys(), profileTypeUrl(SIMULATE_PATH)];
  }

  /**
   * A query of the modules answered as messages, for callers in this process:
   * the same answers and errors as query() without the protobuf bytes either
   * way. Undefined for a path the modules do not answer (query() has it).
   */
  async queryMessage(queryPath: string, request: ProtoMessage, height = 0): Promise<MessageQueryResponse | undefined> {
    if (queryPath === profileTypeUrl(SIMULATE_PATH) || this.servedQueries.has(queryPath) || !this.moduleQueries.has(queryPath)) return undefined;
    const at = height === 0 ? this.height : height;
    return this.keptHeightRefusal(at) ?? this.moduleQueries.queryMessage(queryPath, request, this.store.reader(at, { keepsReads: true }), at);
  }

  /** The refusal of a query at a height this node does not keep (undefined when it keeps it). */
  private keptHeightRefusal(at: number): AbciQueryResponse | undefined {
    const latest = this.height;
    if (at <= latest && at >= this.store.earliestVersion) return undefined;
    return abciError(SdkError.invalidHeight, `cannot query at height ${at}: this node keeps heights ${this.store.earliestVersion} to ${latest}`, at);
  }

  /**
   * CheckTx: the ante handler on the check state (which carries the
   * sequences of transactions already in the mempool). A transaction that
   * passes waits in the mempool with its decoding, which DeliverTx reuses; a
   * block is made as soon as one waits.
   */
  checkTx(bytes: Uint8Array): Promise<{ hash: string; outcome: TxOutcome }> {
    if (this.blockWriteFailure !== undefined) throw new BlocksNotWrittenError(this.blockWriteFailure);
    const hash = this.mempool.admit(bytes);
    return this.queue.run(async () => {
      if (this.blockWriteFailure !== undefined) {
        this.mempool.forget(hash);
        throw new BlocksNotWrittenError(this.blockWriteFailure);
      }
      const decoded = decodedOrUndefined(this.codec, bytes);
      const outcome = await runTx(bytes, "check", this.txEnvironment(this.checkLayer, this.height + 1, this.clock.now()), decoded);
      if (outcome.code === 0) {
        this.mempool.add({ hash, bytes, decoded });
        this.scheduleBlock();
      } else {
        this.mempool.forget(hash);
      }
      return { hash, outcome };
    });
  }

  /** Resolves when the transaction with this hash is committed in a block. */
  waitForInclusion(hash: string): Promise<Inclusion> {
    return this.mempool.waitFor(hash);
  }

  /** Executes and commits the next block with the waiting transactions (possibly none). */
  produceBlock(time = this.clock.now()): Promise<CommittedHeight> {
    return this.queue.run(() => this.executeBlock(time));
  }

  /** Makes `count` blocks one after another (the first takes the waiting transactions); stops early when the node closes. Gives the last height. */
  async advanceBlocks(count: number): Promise<number> {
    for (let i = 0; i < count && !this.closing; i++) await this.queue.run(async () => (this.closing ? undefined : this.executeBlock(this.clock.now())));
    return this.height;
  }

  /** Whether blocks are made on their own (for waiting transactions, and by start's create_empty_blocks timer). */
  get autoBlocks(): boolean {
    return this.autoBlocksOn;
  }

  set autoBlocks(on: boolean) {
    this.autoBlocksOn = on;
    if (on && this.mempool.size > 0) this.scheduleBlock();
  }

  /** Takes a snapshot of the latest height, the waiting transactions and the clock; gives its id. */
  snapshot(): Promise<{ id: number; height: number }> {
    return this.queue.run(async () => {
      const id = this.snapshots.take({ height: this.height, mempool: this.mempool.waiting(), clockOffsetMs: this.clock.offset });
      return { id, height: this.height };
    });
  }

  /**
   * Goes back to snapshot `id`: the heights above its height are forgotten
   * (state, blocks, indexes; the next block reuses the height), the mempool and
   * the clock are as they were, and this snapshot and every later one are forgotten.
   */
  revert(id: number): Promise<{ height: number }> {
    return this.queue.run(async () => {
      const snapshot = this.snapshots.get(id);
      if (!snapshot) throw new UnknownSnapshotError(id);
      const { height } = snapshot;
      const forgotten = [...(await unindexBlocks(this.store, height + 1, this.height))];
      for (let h = height + 1; h <= this.height; h++) forgotten.push(...committedHeightKeys(h).map((key) => ({ key })));
      this.lastCommitted = undefined;
      await this.store.revert(height, forgotten);
      this.snapshots.forgetFrom(id);
      this.clock.offset = snapshot.clockOffsetMs;
      // the check state is the snapshot height's again, with its waiting transactions checked on it
      this.checkLayer = new CacheLayer(this.store.reader());
      const waiting = [];
      for (const tx of snapshot.mempool) {
        const outcome = await runTx(tx.bytes, "check", this.txEnvironment(this.checkLayer, height + 1, this.clock.now()), tx.decoded);
        if (outcome.code === 0) waiting.push(tx);
      }
      this.mempool.replace(waiting);
      this.emit("reverted", height);
      this.scheduleBlock();
      return { height };
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.blockWriteRetry);
    await this.queue.run(async () => undefined); // let a block being made finish
    await this.store.close();
  }

  private scheduleBlock(): void {
    if (this.blockScheduled || this.closing || !this.autoBlocksOn) return;
    this.blockScheduled = true;
    setImmediate(() => {
      this.blockScheduled = false;
      if (this.mempool.size === 0 || this.closing || !this.autoBlocksOn) return;
      // the transactions may have gone into a block produced meanwhile (produceBlock): then no empty block follows
      void this.queue
        .run(async () => {
          if (this.mempool.size > 0 && !this.closing && this.autoBlocksOn) await this.executeBlock(this.clock.now());
        })
        .catch((err: unknown) => {
          if (this.blockWriteFailure === undefined) processLogger().error({ err }, "[node] block production failed"); // a write failure is reported once
        });
    });
  }

  private async executeBlock(time: Date): Promise<CommittedHeight> {
    if (this.storeLost !== undefined) throw new BlocksNotWrittenError(this.storeLost);
    if (this.store.needsReopen) await this.reopenStore();
    const height = this.height + 1;
    const previous = this.lastCommitted?.height === this.height ? this.lastCommitted.record : await this.committed(this.height);
    const blockTime =
      previous && time.getTime() <= Date.parse(previous.block.block.header.time) ? new Date(Date.parse(previous.block.block.header.time) + 1) : time;
    const layer = new CacheLayer(this.store.reader());
    const block = this.blockInfo(previous);
    const beginEvents = await this.runHooks("beginBlock", layer, height, blockTime, block);
    const txs = this.mempool.take();
    const outcomes: TxOutcome[] = [];
    for (const tx of txs) outcomes.push(await runTx(tx.bytes, "deliver", { ...this.txEnvironment(layer, height, blockTime), block }, tx.decoded));
    const endEvents = await this.runHooks("endBlock", layer, height, blockTime, block);
    const record = buildCommittedHeight({
      chainId: this.chain.chainId,
      height,
      time: blockTime,
      txs: txs.map((t) => t.bytes),
      outcomes,
      beginEvents,
      endEvents,
      validators: await this.validatorSet(layer),
      previous,
      appHash: nextAppHash(previous?.appHash ?? "", layer.sortedWrites()),
      consensusParams: this.genesis.consensus_params,
      key: this.validatorKey,
    });
    try {
      await this.commit(
        layer,
        height,
        record,
        txs.map((t) => t.hash),
      );
    } catch (err) {
      this.blockNotWritten(err, txs);
      throw err;
    }
    return record;
  }

  /**
   * A block that could not be written (a full disk): nothing of it is kept (the
   * batch is atomic), its transactions wait again at the head of the mempool,
   * the check state is the committed state again, broadcasts are refused, and
   * the block is tried again every BLOCK_WRITE_RETRY_MS until a write succeeds.
   */
  private blockNotWritten(err: unknown, txs: PendingTx[]): void {
    const first = this.blockWriteFailure === undefined;
    this.blockWriteFailure = blockWriteFailureReason(err);
    if (first) processLogger().error(`[node] cannot write blocks: ${this.blockWriteFailure}; broadcasts are refused until a block is written`);
    this.mempool.restore(txs);
    // BLOCK-mode broadcasts waiting for a block get the refusal now, not a time-out later
    this.mempool.failWaiters(new BlocksNotWrittenError(this.blockWriteFailure));
    this.checkLayer = new CacheLayer(this.store.reader());
    this.retryBlockWrite();
  }

  private retryBlockWrite(): void {
    clearTimeout(this.blockWriteRetry);
    if (this.closing || this.storeLost !== undefined) return;
    this.blockWriteRetry = setTimeout(() => {
      this.queue.run(() => this.executeBlock(this.clock.now())).catch(() => undefined); // a failure schedules the next try
    }, BLOCK_WRITE_RETRY_MS);
    this.blockWriteRetry.unref();
  }

  /**
   * Before any block is written after a write error: the store is opened again
   * (LevelDB replays its log, dropping a torn record) and what the disk holds
   * is read back — the latest height and its block's hash must be the ones
   * acknowledged. If the open fails (no space yet), the next try comes later.
   * If the disk disagrees, the node is lost: it never commits again and says
   * so ("storeLost"), rather than serve or extend state that is not written.
   */
  private async reopenStore(): Promise<void> {
    let onDisk: number;
    let record: CommittedHeight | undefined;
    try {
      onDisk = await this.store.reopen();
      record = onDisk === this.height ? await this.committed(onDisk) : undefined;
    } catch (err) {
      this.blockWriteFailure ??= blockWriteFailureReason(err);
      this.retryBlockWrite();
      throw new BlocksNotWrittenError(this.blockWriteFailure);
    }
    const acknowledged = this.lastCommitted?.height === this.height ? this.lastCommitted.record.block.block_id.hash : undefined;
    if (record !== undefined && (acknowledged === undefined || record.block.block_id.hash === acknowledged)) return;
    this.storeLost =
      onDisk === this.height
        ? `the store's block at height ${onDisk} is not the one acknowledged`
        : `the store holds height ${onDisk}, but height ${this.height} was acknowledged as committed`;
    clearTimeout(this.blockWriteRetry);
    processLogger().error(`[node] ${this.storeLost}; the node commits no more blocks`);
    this.blockWriteFailure = this.storeLost;
    this.mempool.failWaiters(new BlocksNotWrittenError(this.storeLost));
    this.emit("storeLost", this.storeLost);
    throw new BlocksNotWrittenError(this.storeLost);
  }

  private async commit(layer: CacheLayer, height: number, record: CommittedHeight, hashes: string[]): Promise<void> {
    const batch = this.store.begin();
    const writes = layer.sortedWrites();
    layer.commitTo(batch, writes);
    // a rebuild first: it is the state before this block's writes, which then move its entries
    for (const write of this.indexRebuild ?? []) {
      if (write.value) batch.set(write.key, write.value);
      else batch.delete(write.key);
    }
    const before = this.store.reader();
    await removeEarlierAmounts(batch, writes, (key) => before.get(key));
    putIndexWrites(batch, writes, this.codec); // derived data, in the same atomic batch, outside the app hash
    putCommittedHeight(batch, height, record);
    await indexBlock(this.store, batch, height, record, hashes);
    const started = performance.now();
    await this.store.commit(batch);
    this.indexRebuild = undefined;
    const timing: BlockTiming = { commitSeconds: (performance.now() - started) / 1000 };
    if (this.blockWriteFailure !== undefined) processLogger().info(`[node] blocks are written again (height ${height})`);
    this.blockWriteFailure = undefined;
    this.emit("commit", height);
    try {
      await this.store.prune(Math.min(height - this.keepRecent + 1, this.snapshots.lowestHeight ?? Infinity));
    } catch (err) {
      // the block is written; what pruning left is pruned at a later commit
      processLogger().error(`[node] pruning failed: ${blockWriteFailureReason(err)}`);
    }
    this.emit("pruned", height);
    this.checkLayer = new CacheLayer(this.store.reader());
    this.lastCommitted = { height, record };
    hashes.forEach((hash, index) => this.mempool.included(hash, { height, index }));
    this.emit("block", record, timing);
  }

  private async runHooks(hook: "beginBlock" | "endBlock", layer: CacheLayer, height: number, time: Date, block: BlockInfo): Promise<AbciEvent[]> {
    const events: AbciEvent[] = [];
    const order = hook === "beginBlock" ? BEGIN_BLOCK_ORDER : END_BLOCK_ORDER;
    const rank = (m: NodeModule) => (order.includes(m.name) ? order.indexOf(m.name) : order.length);
    const modules = this.modules.map((m, i) => ({ m, i })).sort((a, b) => rank(a.m) - rank(b.m) || a.i - b.i);
    for (const { m: module } of modules) {
      if (module[hook]) await module[hook]({ ...this.execContext(layer, module.name, height, time, events), block });
    }
    return events;
  }

  /** RequestBeginBlock's facts: this node proposes every block; the last commit is the previous height's, signed by this node's key only. */
  private blockInfo(previous: CommittedHeight | undefined): BlockInfo {
    const bytes = (hexText: string) => Uint8Array.from(Buffer.from(hexText, "hex"));
    const signers = new Set((previous?.commit.signatures ?? []).filter((s) => s.block_id_flag === 2).map((s) => s.validator_address));
    // A fork's blocks stand for the set's validators, which (but for this node's own, --fork-validator) cannot sign here: they count as signing, the first proposes.
    const standIn = this.forkPoint !== undefined && previous?.validators[0] !== undefined;
    return {
      proposer: bytes(standIn ? previous.validators[0]!.address : this.validatorKey.address),
      lastCommit: (previous?.validators ?? []).map((v) => ({
        address: bytes(v.address),
        power: BigInt(v.voting_power),
        signed: standIn || signers.has(v.address),
      })),
      lastBlockId: {
        hash: previous?.block.block_id.hash ?? "",
        partsTotal: previous?.block.block_id.parts.total ?? 0,
        partsHash: previous?.block.block_id.parts.hash ?? "",
      },
      appHash: previous?.appHash ?? "",
      nextValidatorsHash: previous?.block.block.header.next_validators_hash ?? "",
    };
  }

  private async validatorSet(layer: FullKeyReader): Promise<Array<{ publicKey: Uint8Array; power: bigint }>> {
    for (const module of this.modules) {
      if (module.validatorSet) return module.validatorSet(new ModuleReader(layer, module.name), { chain: this.chain, codec: this.codec });
    }
    return [{ publicKey: this.validatorKey.publicKey, power: 1n }];
  }

  private execContext(layer: WritableLayer, module: string, height: number, time: Date, events: AbciEvent[]): ExecContext {
    return execContextOver(layer, module, { chain: this.chain, codec: this.codec, paramSubspaces: this.paramSubspaces }, height, time, events);
  }

  private txEnvironment(layer: CacheLayer, height: number, time: Date): TxEnvironment {
    const maxGas = BigInt(String((this.genesis.consensus_params as { block?: { max_gas?: string } } | undefined)?.block?.max_gas ?? "-1"));
    return {
      codec: this.codec,
      amino: this.amino,
      chain: this.chain,
      routes: this.routes,
      paramSubspaces: this.paramSubspaces,
      anteChecks: this.anteChecks,
      layer,
      height,
      time,
      minGasPrices: this.minGasPrices,
      blockMaxGas: maxGas,
    };
  }

  /** Simulate: the whole transaction on a throwaway copy of the latest state, without signature checks. */
  private async simulate(data: Uint8Array, height: number): Promise<AbciQueryResponse> {
    return simulateQuery(data, height, this.codec, (bytes) => this.simulateTx(bytes));
  }

  private simulateTx(bytes: Uint8Array): Promise<TxOutcome> {
    return this.queue.run(() => runTx(bytes, "simulate", this.txEnvironment(new CacheLayer(this.store.reader()), this.height + 1, this.clock.now())));
  }

  /** The baseapp's own query paths: /app, /store, /p2p and /custom. */
  private readonly baseapp: BaseappHandlers = {
    appVersion: APP_VERSION,
    simulate: (bytes, height) => appSimulate(bytes, height, this.codec, (tx) => this.simulateTx(tx)),
    store: (subpath, data, height) => this.storeQuery.answer(subpath, data, height),
    custom: (subpath, data, height) => {
      if (height > this.height || height < this.store.earliestVersion) {
        const log = `failed to load state at height ${height}; version does not exist (latest height: ${this.height})`;
        return Promise.resolve(abciError(SdkError.invalidRequest, log, 0));
      }
      return answerCustomQuery(subpath, data, height, { codec: this.codec, amino: this.amino, call: (path, bytes, at) => this.query(path, bytes, at) });
    },
  };

  /** Block 1: the modules not written yet (`genesis.imported` are in `layer` already) written into `layer`, then committed. */
  private async initChain({ states, imported }: ParsedGenesis, layer: GenesisLayer, progress?: ImportProgress): Promise<void> {
    if (progress) layer.onWrite = () => progress.advance();
    const time = new Date(this.genesis.genesis_time);
    progress?.begin("writing the other modules' state", "keys", genesisEntries(states));
    for (const [i, module] of this.modules.entries()) {
      if (imported.has(module.name)) continue;
      await module.initGenesis(states.get(module.name) ?? {}, this.execContext(layer, module.name, 1, time, []));
      // written: its decoded state need not stay in memory (the ibc modules share one name and state)
      if (!this.modules.slice(i + 1).some((later) => later.name === module.name)) states.delete(module.name);
    }
    progress?.end();
    progress?.begin("sorting the keys (a step: merged keys)", "keys");
    const writes = await layer.sortedWrites((n) => progress?.advance(n));
    progress?.end();
    progress?.begin("hashing the state", "keys", layer.size);
    const appHash = await nextAppHashInSteps("", writes, (n) => progress?.advance(n));
    progress?.end();
    const batch = await this.firstVersion(this.store.begin(), layer, time, appHash, (first) => {
      first.setSortedFresh(writes);
      putFirstIndexes(first, writes, this.codec, progress);
    });
    progress?.begin("committing to the store", "LevelDB entries", 2 * layer.size);
    await this.store.commitFirst(batch, (keys) => progress?.advance(keys));
    progress?.end();
    this.checkLayer = new CacheLayer(this.store.reader());
  }

  /**
   * A fork's first version, at the forked height: no state of its own but the funded
   * accounts (and, with --fork-validator, this node's own validator bonded in place of the
   * remote's; everything else is the remote's, read through the store's underlay), and a
   * block record of that height with the remote's block time and the validator set.
   */
  private async initFork(point: ForkPoint, fund: FundEntry[], validatorOperator: string | undefined): Promise<void> {
    const layer = new CacheLayer(this.store.reader(0));
    const time = new Date(point.time);
    await fundForkAccounts(this.execContext(layer, "bank", point.height, time, []), fund);
    if (validatorOperator !== undefined) {
      await bondForkValidator(this.execContext(layer, "staking", point.height, time, []), this.validatorKey.publicKey, validatorOperator, this.moniker);
    }
    const sorted = layer.sortedWrites();
    const batch = await this.firstVersion(this.store.beginAt(point.height), layer, time, nextAppHash("", sorted), (first) => layer.commitTo(first, sorted));
    putForkPoint(batch, point);
    await this.store.commitFirst(batch);
    this.checkLayer = new CacheLayer(this.store.reader());
  }

  /** The first version's batch: the genesis facts, the layer's writes (`putWrites`), and the block record of its height (no transactions). */
  private async firstVersion(
    batch: StateBatch,
    layer: FullKeyReader,
    time: Date,
    appHash: string,
    putWrites: (batch: StateBatch) => void,
  ): Promise<StateBatch> {
    const record = buildCommittedHeight({
      chainId: this.chain.chainId,
      height: batch.version,
      time,
      txs: [],
      outcomes: [],
      beginEvents: [],
      endEvents: [],
      validators: await this.validatorSet(layer),
      appHash,
      consensusParams: this.genesis.consensus_params,
      key: this.validatorKey,
    });
    putGenesisFacts(batch, this.genesis);
    putWrites(batch);
    putCommittedHeight(batch, batch.version, record);
    markEventIndexCurrent(batch);
    return batch;
  }
}

/** A fork's genesis facts: the home's consensus parameters (and genesis.json's hash, which later starts check); the remote's chain id, or `chainId`. */
function forkGenesisFacts(home: ParsedGenesis, point: ForkPoint, chainId: string | undefined): GenesisFacts {
  return {
    ...genesisFactsOf(home.doc, home.sha256),
    chain_id: chainId ?? point.remoteChainId,
    genesis_time: point.time,
    initial_height: String(point.height),
  };
}

/** LevelDB's memtable of the process that imports a genesis (a later start has LevelDB's default 4 MiB). */
const IMPORT_WRITE_BUFFER = 64 << 20;

/** The transaction as CheckTx and DeliverTx decode it; undefined when it does not decode (runTx then reports why). */
function decodedOrUndefined(codec: Codec, bytes: Uint8Array): DecodedTx | undefined {
  try {
    return decodeTx(codec, bytes, { deterministic: true });
  } catch {
    return undefined;
  }
}

/** The application's version, as /app/version answers it (the baseapp's appVersion). */
const APP_VERSION = (createRequire(import.meta.url)("../../package.json") as { version: string }).version;

/** The tx service's Simulate runs inside the app, as an ABCI query (as in the real system). */
const SIMULATE_PATH = "/core.tx.v1beta1.Service/Simulate";
