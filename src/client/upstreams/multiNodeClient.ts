import {
  NodeRpcError,
  NodeUnavailableError,
  type AbciQueryResponse,
  type BroadcastMode,
  type BroadcastResult,
  type ChainClient,
  type EventListener,
  type HeightListener,
  type StatusResult,
  type TxResult,
  type TxSearchResult,
} from "../chainClient.js";
import { broadcastOnce } from "./broadcastOnce.js";
import { ineligibility } from "./eligibility.js";
import { failoverSubscribe } from "./failoverEvents.js";
import { isHeightRefusal, keptRangesText, noNodeKeeps } from "./keptRanges.js";
import { leastLoaded } from "./nodeChoice.js";
import type { NodePool } from "./nodePool.js";
import type { UpstreamRequestScope } from "./requestScope.js";
import { UpstreamNode } from "./upstreamNode.js";
import type { UpstreamList, UpstreamSettings } from "./upstreamSettings.js";

/**
 * A ChainClient in front of several nodes of one chain, each an RpcClient:
 * the REST side sees one client. Each node is probed every probe interval;
 * a request at the latest height goes to the least-loaded eligible node
 * (eligibility.ts) at or above the height its connection was already answered
 * at; a request pinned to a height only to a node that keeps it; a read that
 * fails for a transport reason is asked once more of another node.
 */
export class MultiNodeClient implements ChainClient, NodePool {
  readonly address: string;
  readonly nodes: UpstreamNode[];
  private expectedChainId: string | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private readonly heightWaiters = new Set<() => void>();

  constructor(
    list: UpstreamList,
    readonly settings: UpstreamSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.nodes = [
      ...list.nodes.map((url) => new UpstreamNode(url, false, settings)),
      ...(list.archive ? [new UpstreamNode(list.archive, true, settings)] : []),
    ];
    this.address = `nodes ${this.nodes.map((n) => n.address).join(", ")}`;
  }

  /** Probes every node once (the chain id most of them answer is the expected one), then every probe interval. */
  async start(): Promise<void> {
    await this.probeAll();
    this.probeTimer = setInterval(() => void this.probeAll(), this.settings.probeIntervalMs);
    this.probeTimer.unref();
  }

  stop(): void {
    clearInterval(this.probeTimer);
  }

  get chainId(): string | undefined {
    return this.expectedChainId;
  }

  /** The highest height a node of the expected chain that is not cooling down reported. */
  bestHeight(): number {
    let best = 0;
    for (const node of this.nodes) if (this.usable(node)) best = Math.max(best, node.latest ?? 0);
    return best;
  }

  /** Why `node` may not answer at the latest height (undefined: it may). */
  ineligibility(node: UpstreamNode, best = this.bestHeight(), now = this.now()): string | undefined {
    return ineligibility(node.state, node.latest, this.expectedChainId, best, this.settings, now);
  }

  eligibleNodes(): UpstreamNode[] {
    const best = this.bestHeight();
    const now = this.now();
    return this.nodes.filter((n) => this.ineligibility(n, best, now) === undefined);
  }

  describeNodes(): Array<Record<string, unknown>> {
    return this.nodes.map((n) => n.describe(this.ineligibility(n)));
  }

  abciQuery(path: string, data: Uint8Array, height = 0, scope?: UpstreamRequestScope): Promise<AbciQueryResponse> {
    if (height > 0) return this.pinnedQuery(path, data, height, scope);
    return this.atLatest(
      (node) => node.rpc.abciQuery(path, data, 0),
      (answer) => answer.height,
      scope,
    );
  }

  broadcastTx(tx: Uint8Array, mode: BroadcastMode, scope?: UpstreamRequestScope): Promise<BroadcastResult> {
    return broadcastOnce(this, tx, mode, scope);
  }

  /** Asked of each eligible node until one has it: a node a block behind may not have indexed it yet. */
  async tx(hash: Uint8Array, scope?: UpstreamRequestScope): Promise<TxResult> {
    let last: Error | undefined;
    for (const node of this.byLoad(this.eligibleNodes())) {
      try {
        return await this.run(node, () => node.rpc.tx(hash), scope);
      } catch (err) {
        last = err as Error;
      }
    }
    throw last ?? this.noneEligible();
  }

  txSearch(query: string, page?: number, perPage?: number, orderBy?: "asc" | "desc", scope?: UpstreamRequestScope): Promise<TxSearchResult> {
    return this.atLatest(
      (node) => node.rpc.txSearch(query, page, perPage, orderBy),
      () => undefined,
      scope,
    );
  }

  block(height?: number, scope?: UpstreamRequestScope): Promise<Record<string, unknown>> {
    if (height !== undefined && height > 0) return this.pinnedBlockCall(height, (node) => node.rpc.block(height), scope);
    return this.atLatest(
      (node) => node.rpc.block(),
      (answer) => Number((answer as { block?: { header?: { height?: string } } }).block?.header?.height) || undefined,
      scope,
    );
  }

  blockResults(height: number, scope?: UpstreamRequestScope): Promise<Record<string, unknown>> {
    return this.pinnedBlockCall(height, (node) => node.rpc.blockResults(height), scope);
  }

  validators(height?: number, page?: number, perPage?: number, scope?: UpstreamRequestScope): Promise<Record<string, unknown>> {
    if (height !== undefined && height > 0) return this.pinnedBlockCall(height, (node) => node.rpc.validators(height, page, perPage), scope);
    return this.atLatest(
      (node) => node.rpc.validators(undefined, page, perPage),
      (answer) => Number(answer.block_height) || undefined,
      scope,
    );
  }

  status(scope?: UpstreamRequestScope): Promise<StatusResult> {
    return this.atLatest(
      (node) => node.rpc.status(),
      (answer) => Number(answer.sync_info.latest_block_height),
      scope,
    );
  }

  async heightsRewritable(height: number): Promise<boolean> {
    const node = leastLoaded(this.eligibleNodes());
    return node ? node.rpc.heightsRewritable(height) : true;
  }

  /** The best height across the nodes' NewBlock feeds; undefined only while no feed is up. */
  watchHeights(listener: HeightListener): () => void {
    let announced: number | undefined;
    const recompute = () => {
      let best: number | undefined;
      for (const node of this.nodes) {
        if (node.fedHeight === undefined || !this.usable(node)) continue;
        best = Math.max(best ?? 0, node.fedHeight);
      }
      for (const wake of [...this.heightWaiters]) wake();
      if (best === announced || (best !== undefined && announced !== undefined && best < announced)) return;
      announced = best;
      listener(best);
    };
    const stops = this.nodes.map((node) =>
      node.rpc.watchHeights((latest) => {
        // a feed that drops (a node killed or restarting) has its node probed at once: out before a call meets it
        if (latest === undefined && node.fedHeight !== undefined) this.probeNow(node);
        node.fedHeight = latest;
        recompute();
      }),
    );
    return () => stops.forEach((stop) => stop());
  }

  subscribeEvents(query: string, listener: EventListener): Promise<() => void> {
    return failoverSubscribe(this, query, listener);
  }

  /** Runs a call on a node, counting it in flight; a transport failure counts toward its cooldown. `scope`: the request's, told who answered. */
  async run<T>(node: UpstreamNode, call: () => Promise<T>, scope?: UpstreamRequestScope): Promise<T> {
    node.inFlight++;
    try {
      const answer = await call();
      node.succeeded();
      if (scope) scope.answeredBy = node.address;
      return answer;
    } catch (err) {
      if (err instanceof NodeUnavailableError) {
        node.failed(this.now());
        this.probeNow(node); // a node that went away is out as soon as its probe fails, not at the next interval
      } else node.succeeded(); // it answered
      throw err;
    } finally {
      node.inFlight--;
    }
  }

  /**
   * A call at the latest height: to the least-loaded eligible node at or
   * above the connection's floor (the archive node only when no other is);
   * after a transport failure (or an answer below the floor), once more on another.
   */
  private async atLatest<T>(
    call: (node: UpstreamNode) => Promise<T>,
    heightOf: (answer: T) => number | undefined,
    scope: UpstreamRequestScope | undefined,
  ): Promise<T> {
    const tried = new Set<UpstreamNode>();
    let failure: NodeUnavailableError | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const floor = scope?.connection.floor ?? 0;
      const node = await this.chooseAtLatest(floor, tried, failure);
      tried.add(node);
      try {
        const answer = await this.run(node, () => call(node), scope);
        const height = heightOf(answer);
        if (height !== undefined && height < floor) {
          failure = new NodeUnavailableError(node.address, `answered at height ${height}, below ${floor} already answered on this connection`);
          continue;
        }
        if (scope && height !== undefined) scope.connection.floor = Math.max(floor, height);
        return answer;
      } catch (err) {
        if (!(err instanceof NodeUnavailableError)) throw err;
        failure = err;
      }
    }
    throw failure!;
  }

  private async chooseAtLatest(floor: number, tried: Set<UpstreamNode>, failure: NodeUnavailableError | undefined): Promise<UpstreamNode> {
    const deadline = this.now() + this.settings.floorWaitMs;
    for (;;) {
      const eligible = this.eligibleNodes().filter((n) => !tried.has(n));
      if (eligible.length === 0) throw failure ?? this.noneEligible();
      const high = eligible.filter((n) => (n.latest ?? 0) >= floor);
      const chosen = leastLoaded(high.filter((n) => !n.archive)) ?? leastLoaded(high);
      if (chosen) return chosen;
      // every eligible node is behind what this connection was answered at: wait for one to get there
      const left = deadline - this.now();
      if (left <= 0) throw failure ?? new NodeUnavailableError(this.address, `no node has reached height ${floor}, already answered on this connection, yet`);
      await this.heightChange(Math.min(left, this.settings.probeIntervalMs));
    }
  }

  /** A query at a height: only nodes that keep it; a refusal teaches the node's range and the next node is asked. */
  private async pinnedQuery(path: string, data: Uint8Array, height: number, scope: UpstreamRequestScope | undefined): Promise<AbciQueryResponse> {
    const tried = new Set<UpstreamNode>();
    const unreachable = new Set<UpstreamNode>();
    for (;;) {
      const node = this.chooseKeeping(height, tried);
      if (!node)
        return noNodeKeeps(
          height,
          this.nodes,
          this.nodes.filter((n) => this.usable(n) && n.state.probeError === undefined && !unreachable.has(n)),
        );
      tried.add(node);
      let answer: AbciQueryResponse;
      try {
        answer = await this.run(node, () => node.rpc.abciQuery(path, data, height), scope);
      } catch (err) {
        if (!(err instanceof NodeUnavailableError) || unreachable.size >= 1) throw err;
        unreachable.add(node);
        continue;
      }
      if (!isHeightRefusal(answer)) return answer;
      node.learnFromRefusal(height, answer.log);
    }
  }

  /** block, block_results, validators at a height: blocks are kept from earliest_block_height, so the state's range does not matter. */
  private async pinnedBlockCall<T>(height: number, call: (node: UpstreamNode) => Promise<T>, scope: UpstreamRequestScope | undefined): Promise<T> {
    const keeping = (tried: Set<UpstreamNode>) =>
      this.byLoad(this.nodes.filter((n) => this.usable(n) && !tried.has(n) && (n.state.earliest ?? 1) <= height && (n.latest ?? 0) >= height));
    const tried = new Set<UpstreamNode>();
    for (;;) {
      const node = keeping(tried)[0];
      if (!node) throw new NodeRpcError(-32603, "Internal error", `height ${height} is not available on any node; kept heights: ${keptRangesText(this.nodes)}`);
      tried.add(node);
      try {
        return await this.run(node, () => call(node), scope);
      } catch (err) {
        if (!(err instanceof NodeUnavailableError) || tried.size >= 2) throw err;
      }
    }
  }

  private chooseKeeping(height: number, tried: Set<UpstreamNode>): UpstreamNode | undefined {
    const keeping = this.nodes.filter((n) => this.usable(n) && !tried.has(n) && n.state.probeError === undefined && n.keeps(height));
    return leastLoaded(keeping.filter((n) => !n.archive)) ?? leastLoaded(keeping);
  }

  /** Of the expected chain and not cooling down (it may lag or be slow). */
  usable(node: UpstreamNode): boolean {
    return node.state.outUntil <= this.now() && (this.expectedChainId === undefined || node.state.chainId === this.expectedChainId);
  }

  byLoad(nodes: UpstreamNode[]): UpstreamNode[] {
    return [...nodes].sort((a, b) => a.inFlight - b.inFlight || (a.state.latencyMs ?? Infinity) - (b.state.latencyMs ?? Infinity));
  }

  noneEligible(): NodeUnavailableError {
    const states = this.nodes.map((n) => `${n.address}: ${this.ineligibility(n) ?? "eligible"}`).join("; ");
    return new NodeUnavailableError(this.address, `no node is eligible (${states})`);
  }

  private async probeAll(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.probe(this.now)));
    this.expectedChainId ??= majorityChainId(this.nodes);
    for (const wake of [...this.heightWaiters]) wake();
  }

  /** Probes one node at once (one probe at a time per node). */
  private probeNow(node: UpstreamNode): void {
    if (node.probing) return;
    node.probing = true;
    void node.probe(this.now).finally(() => {
      node.probing = false;
      for (const wake of [...this.heightWaiters]) wake();
    });
  }

  /** Resolves at the next height a probe or feed reports, or after `ms`. */
  private heightChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.heightWaiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.heightWaiters.add(wake);
    });
  }
}

/** The chain id most nodes answered (undefined while none answered): the one expected of every node from then on. */
function majorityChainId(nodes: readonly UpstreamNode[]): string | undefined {
  const counts = new Map<string, number>();
  for (const node of nodes) if (node.state.chainId !== undefined) counts.set(node.state.chainId, (counts.get(node.state.chainId) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
