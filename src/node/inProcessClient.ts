import { getBlock, RPC_ED25519_KEY_TYPE } from "./chain/blockStore.js";
import type {
  AbciQueryResponse,
  BroadcastMode,
  BroadcastResult,
  ChainClient,
  EventListener,
  HeightListener,
  MessageQueryResponse,
  StatusResult,
  TxResult,
  TxSearchResult,
} from "../client/chainClient.js";
import { NodeRpcError } from "../client/chainClient.js";
import { Mempool, MempoolError } from "./chain/mempool.js";
import { searchTxs, TxSearchError } from "./chain/txSearch.js";
import { getIndexedTx } from "./chain/txIndex.js";
import type { EmbeddedNode } from "./embeddedNode.js";
import { txResultJson } from "./chain/blockBuilder.js";
import type { TxOutcome } from "./tx/runTx.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { BlocksNotWrittenError } from "./chain/blockWriteFailure.js";
import { EventQuery } from "../events/eventQuery.js";
import { followPublishedEvents } from "./rpc/publishedEventFeed.js";
import { streamedEvent } from "./rpc/publishedEvents.js";

/**
 * The consensus engine release whose JSON-RPC this node speaks, reported by
 * `status`: clients choose their RPC client by it (cosmjs' connectComet).
 */
const ENGINE_VERSION = "0.34.24";

/** The engine's commit wait (timeout_broadcast_tx_commit). */
const COMMIT_TIMEOUT_MS = 10_000;

/** The node's events after which answers at the latest height may differ. */
const HEIGHT_EVENTS = ["commit", "pruned", "reverted"] as const;

/**
 * ChainClient for the embedded node in the same process: the same surface,
 * result shapes and errors as its JSON-RPC, without the HTTP hop.
 */
export class InProcessClient implements ChainClient {
  readonly address = "in-process node";
  /** The JSON-RPC server's listen address (tcp://host:port), reported by status once it listens. */
  private rpcAddress = "";

  constructor(private readonly node: EmbeddedNode) {}

  rpcListensAt(address: string): void {
    this.rpcAddress = address;
  }

  abciQuery(path: string, data: Uint8Array, height = 0): Promise<AbciQueryResponse> {
    return this.node.query(path, data, height);
  }

  queryMessage(path: string, request: ProtoMessage, height = 0): Promise<MessageQueryResponse | undefined> {
    return this.node.queryMessage(path, request, height);
  }

  async broadcastTx(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    let checked: Promise<{ hash: string; outcome: TxOutcome }>;
    try {
      checked = this.node.checkTx(tx);
    } catch (err) {
      if (err instanceof MempoolError || err instanceof BlocksNotWrittenError) throw new NodeRpcError(-32603, "Internal error", err.message);
      throw err;
    }
    if (mode === "async") {
      checked.catch(() => undefined);
      return { code: 0, data: "", log: "", codespace: "", hash: Mempool.hashOf(tx) };
    }
    const { hash, outcome } = await checked.catch((err: unknown) => {
      throw err instanceof BlocksNotWrittenError ? new NodeRpcError(-32603, "Internal error", err.message) : err;
    });
    const checkTx = { code: outcome.code, data: hexData(outcome.data), log: outcome.log, codespace: outcome.codespace, hash };
    if (mode === "sync") return checkTx;
    const checkTxJson = { ...txResultJson(outcome), gas_wanted: outcome.gasWanted.toString() };
    if (outcome.code !== 0) return { ...checkTx, check_tx: checkTxJson, deliver_tx: {}, height: "0" };
    const inclusion = await withTimeout(this.node.waitForInclusion(hash), COMMIT_TIMEOUT_MS).catch((err: unknown) => {
      throw err instanceof BlocksNotWrittenError ? new NodeRpcError(-32603, "Internal error", err.message) : err;
    });
    const committed = await getIndexedTx(this.node.store, Buffer.from(hash, "hex"));
    return { ...checkTx, check_tx: checkTxJson, deliver_tx: committed!.tx_result as unknown as Record<string, unknown>, height: String(inclusion.height) };
  }

  async tx(hash: Uint8Array): Promise<TxResult> {
    const found = await getIndexedTx(this.node.store, hash);
    if (!found) throw new NodeRpcError(-32603, "Internal error", `tx (${Buffer.from(hash).toString("hex").toUpperCase()}) not found`);
    return found as unknown as TxResult;
  }

  async txSearch(query: string, page = 1, perPage = 30, orderBy: "asc" | "desc" = "asc"): Promise<TxSearchResult> {
    try {
      return (await searchTxs(this.node.store, query, page, perPage, orderBy)) as unknown as TxSearchResult;
    } catch (err) {
      if (err instanceof TxSearchError) throw new NodeRpcError(-32603, "Internal error", err.message);
      throw err;
    }
  }

  async block(height?: number): Promise<Record<string, unknown>> {
    // the block alone: the height's results (every tx's events and log) are not read for it
    const block = await getBlock(this.node.store, this.checkHeight(height));
    return block as unknown as Record<string, unknown>;
  }

  async blockResults(height: number): Promise<Record<string, unknown>> {
    return (await this.node.committed(this.checkHeight(height)))!.results as unknown as Record<string, unknown>;
  }

  async validators(height?: number, page = 1, perPage = 30): Promise<Record<string, unknown>> {
    const at = this.checkHeight(height);
    const all = (await this.node.committed(at))!.validators;
    const size = perPage < 1 ? 30 : Math.min(perPage, 100);
    const pages = Math.max(1, Math.ceil(all.length / size));
    if (page < 1 || page > pages) throw new NodeRpcError(-32603, "Internal error", `page should be within [1, ${pages}] range, given ${page}`);
    const validators = all.slice((page - 1) * size, page * size);
    return { block_height: String(at), validators, count: String(validators.length), total: String(all.length) };
  }

  async status(): Promise<StatusResult> {
    const latest = (await this.node.committed(this.node.height))!;
    const earliest = await this.node.committed(1);
    const key = this.node.validatorKey;
    return {
      node_info: {
        protocol_version: { p2p: "8", block: "11", app: "0" },
        id: this.node.nodeId,
        listen_addr: "tcp://0.0.0.0:26656",
        network: this.node.chain.chainId,
        version: ENGINE_VERSION,
        channels: "40202122233038606100",
        moniker: this.node.moniker,
        other: { tx_index: "on", rpc_address: this.rpcAddress },
      },
      sync_info: {
        latest_block_hash: latest.block.block_id.hash,
        latest_app_hash: latest.appHash,
        latest_block_height: String(this.node.height),
        latest_block_time: latest.block.block.header.time,
        earliest_block_hash: earliest?.block.block_id.hash ?? "",
        earliest_app_hash: earliest?.appHash ?? "",
        earliest_block_height: "1",
        earliest_block_time: earliest?.block.block.header.time ?? "",
        catching_up: false,
      },
      validator_info: {
        address: key.address,
        pub_key: { type: RPC_ED25519_KEY_TYPE, value: Buffer.from(key.publicKey).toString("base64") },
        voting_power: latest.validators.find((v) => v.address === key.address)?.voting_power ?? "0",
      },
    };
  }

  /** Once a snapshot was taken, a revert may write committed heights again. */
  heightsRewritable(): boolean {
    return this.node.snapshots.everTaken;
  }

  /**
   * The node says when a block commits, before anything else learns of it
   * (inclusion, events), again when that commit's pruning makes old heights unreadable,
   * and when a revert makes an earlier height the latest again.
   */
  watchHeights(listener: HeightListener): () => void {
    const onChange = (height: number) => listener(height);
    for (const event of HEIGHT_EVENTS) this.node.on(event, onChange);
    listener(this.node.height);
    return () => {
      for (const event of HEIGHT_EVENTS) this.node.off(event, onChange);
    };
  }

  /** Follows what the node publishes at each commit, keeping what matches the query. */
  subscribeEvents(query: string, listener: EventListener): Promise<() => void> {
    const parsed = new EventQuery(query);
    const stopFollowing = followPublishedEvents(this.node, (events) => {
      for (const event of events) if (parsed.matches(event.events)) listener.event(streamedEvent(parsed.text, event));
    });
    // a revert ends the subscription, as the node's websocket ends its own (websocket.ts)
    const onReverted = (height: number) => {
      stop();
      listener.end(`the dev chain was reverted to height ${height}`);
    };
    const stop = () => {
      stopFollowing();
      this.node.off("reverted", onReverted);
    };
    this.node.on("reverted", onReverted);
    return Promise.resolve(stop);
  }

  /** The engine's height rules: omitted means latest; it must be a committed height. */
  private checkHeight(height: number | undefined): number {
    const latest = this.node.height;
    if (height === undefined || height === 0) return latest;
    if (height < 0) throw new NodeRpcError(-32603, "Internal error", `height ${height} must be greater than 0`);
    if (height > latest)
      throw new NodeRpcError(-32603, "Internal error", `height ${height} must be less than or equal to the current blockchain height ${latest}`);
    return height; // blocks are kept from height 1; only state versions are pruned
  }
}

function hexData(data: Uint8Array): string {
  return Buffer.from(data).toString("hex").toUpperCase();
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new NodeRpcError(-32603, "Internal error", "timed out waiting for tx to be included in a block")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
