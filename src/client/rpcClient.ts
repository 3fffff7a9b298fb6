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
} from "./chainClient.js";
import { JsonPoster, PostFailed } from "./jsonPost.js";
import { NewBlockFeed } from "./newBlockFeed.js";
import { RewritableHeights, type DevChainStatus } from "./rewritableHeights.js";
import { UpstreamEvents } from "./upstreamEvents.js";
import type { RpcReply } from "./socketCalls.js";
import { fieldText } from "../codec/fieldText.js";

/**
 * ChainClient over the consensus engine's JSON-RPC (POST, JSON-RPC 2.0), with
 * its encodings: 64-bit ints as strings, abci_query data as hex without 0x,
 * tx bytes and hashes as base64. Every call is bounded by `timeoutMs`; a node
 * that cannot be reached is a NodeUnavailableError naming its address.
 * While a height watch holds the node's websocket open, abci_query (the
 * gateway's every query) is sent over it: less work on both sides than an
 * HTTP exchange. The answers and errors are the same; when the socket is
 * down the query goes over HTTP as before.
 */
export class RpcClient implements ChainClient {
  private nextId = 1;
  private readonly feeds = new Set<NewBlockFeed>();
  private readonly poster: JsonPoster;
  private readonly events: UpstreamEvents;
  private readonly rewritable = new RewritableHeights(async () => (await this.call("dev_chain_status", {})) as DevChainStatus);

  constructor(
    readonly address: string,
    private readonly timeoutMs = 10_000,
  ) {
    this.poster = new JsonPoster(address, timeoutMs);
    this.events = new UpstreamEvents(address, timeoutMs);
  }

  async abciQuery(path: string, data: Uint8Array, height = 0): Promise<AbciQueryResponse> {
    const params = { path, data: Buffer.from(data).toString("hex"), height: String(height), prove: false };
    const result = (await this.call("abci_query", params, true)) as { response: Record<string, unknown> };
    const r = result.response ?? {};
    if (height === 0) this.observe(Number(r.height ?? 0)); // the latest height, as the node answered it
    return {
      code: Number(r.code ?? 0),
      codespace: fieldText(r.codespace),
      log: fieldText(r.log),
      value: new Uint8Array(Buffer.from(fieldText(r.value), "base64")),
      height: Number(r.height ?? 0),
    };
  }

  async broadcastTx(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    const result = (await this.call(`broadcast_tx_${mode}`, { tx: Buffer.from(tx).toString("base64") })) as BroadcastResult;
    if (result.height) this.observe(Number(result.height)); // committed: the chain is at least there
    return result;
  }

  async tx(hash: Uint8Array): Promise<TxResult> {
    return (await this.call("tx", { hash: Buffer.from(hash).toString("base64"), prove: false })) as TxResult;
  }

  async txSearch(query: string, page = 1, perPage = 30, orderBy: "asc" | "desc" = "asc"): Promise<TxSearchResult> {
    return (await this.call("tx_search", { query, prove: false, page: String(page), per_page: String(perPage), order_by: orderBy })) as TxSearchResult;
  }

  async block(height?: number): Promise<Record<string, unknown>> {
    return (await this.call("block", height === undefined ? {} : { height: String(height) })) as Record<string, unknown>;
  }

  async blockResults(height: number): Promise<Record<string, unknown>> {
    return (await this.call("block_results", { height: String(height) })) as Record<string, unknown>;
  }

  async validators(height?: number, page = 1, perPage = 100): Promise<Record<string, unknown>> {
    const params: Record<string, string> = { page: String(page), per_page: String(perPage) };
    if (height !== undefined) params.height = String(height);
    return (await this.call("validators", params)) as Record<string, unknown>;
  }

  async status(): Promise<StatusResult> {
    return (await this.call("status", {})) as StatusResult;
  }

  /** Whether a revert of the node (a dev chain with snapshots) may change `height` (rewritableHeights.ts). */
  heightsRewritable(height: number): Promise<boolean> {
    return this.rewritable.rewritable(height);
  }

  /** Follows the node's height over its websocket NewBlock events. */
  watchHeights(listener: HeightListener): () => void {
    const feed = new NewBlockFeed(this.address, async () => Number((await this.status()).sync_info.latest_block_height), listener, this.timeoutMs);
    this.feeds.add(feed);
    return () => {
      feed.stop();
      this.feeds.delete(feed);
    };
  }

  /** Over the node's websocket: one subscription per distinct query, shared (upstreamEvents.ts). */
  subscribeEvents(query: string, listener: EventListener): Promise<() => void> {
    return this.events.subscribe(query, listener);
  }

  private observe(height: number): void {
    for (const feed of this.feeds) feed.observe(height);
  }

  /** A call over HTTP, or (`overSocket`, for reads) over an open websocket of a height watch. */
  private async call(method: string, params: Record<string, unknown>, overSocket = false): Promise<unknown> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    const reply = (overSocket ? await this.callOverSocket(id, body) : undefined) ?? (await this.callOverHttp(method, body));
    if (reply.error) throw new NodeRpcError(reply.error.code, reply.error.message, reply.error.data);
    if (reply.result === undefined) throw new NodeUnavailableError(this.address, `${method} answered without a result`);
    return reply.result;
  }

  /** Undefined when no socket is open (or it closed before the answer). */
  private async callOverSocket(id: number, body: string): Promise<RpcReply | undefined> {
    const feed = [...this.feeds].find((f) => f.isOpen());
    if (!feed) return undefined;
    try {
      return await feed.call(id, body);
    } catch (err) {
      throw new NodeUnavailableError(this.address, (err as Error).message); // no answer within the time limit
    }
  }

  private async callOverHttp(method: string, body: string): Promise<RpcReply> {
    let answer: { status: number; text: string };
    try {
      answer = await this.poster.post(body);
    } catch (err) {
      const reason = err instanceof PostFailed ? err.reason : (err as Error).message;
      throw new NodeUnavailableError(this.address, reason, reason === "ECONNREFUSED");
    }
    try {
      return JSON.parse(answer.text) as RpcReply;
    } catch {
      throw new NodeUnavailableError(this.address, `${method} answered HTTP ${answer.status} without a JSON-RPC body`);
    }
  }
}
