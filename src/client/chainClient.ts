import type { UpstreamRequestScope } from "./upstreams/requestScope.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";

/**
 * The consensus engine's RPC surface that the gateway needs. The embedded
 * node implements it in-process; RpcClient implements it over Tendermint
 * JSON-RPC for a node in another process. Result objects keep the JSON-RPC
 * result shapes (64-bit ints as strings, hashes as uppercase hex, bytes as base64).
 */
export interface AbciQueryResponse {
  code: number;
  codespace: string;
  log: string;
  value: Uint8Array;
  height: number;
}

/** A query answered as messages, without protobuf bytes: the ABCI answer, and the response message when code is 0. */
export interface MessageQueryResponse extends Omit<AbciQueryResponse, "value"> {
  response?: ProtoMessage;
}

export type BroadcastMode = "async" | "sync" | "commit";

export interface BroadcastResult {
  code: number;
  data: string;
  log: string;
  codespace: string;
  hash: string;
  /** Only for mode "commit". */
  check_tx?: Record<string, unknown>;
  deliver_tx?: Record<string, unknown>;
  height?: string;
}

export interface TxResult {
  hash: string;
  height: string;
  index: number;
  tx_result: Record<string, unknown>;
  tx: string;
}

export interface TxSearchResult {
  txs: TxResult[];
  total_count: string;
}

export interface StatusResult {
  node_info: Record<string, unknown> & { network: string };
  sync_info: Record<string, unknown> & { latest_block_height: string; catching_up: boolean };
  validator_info: Record<string, unknown>;
}

/**
 * Told the latest committed height whenever answers may have changed (a
 * commit, the pruning after it), and `undefined` while the client cannot tell
 * (a dropped event subscription): then nothing may be assumed about the chain.
 */
export type HeightListener = (latest: number | undefined) => void;

/** One event as the engine's websocket `subscribe` delivers it: the JSON-RPC message's `result`. */
export interface StreamedEvent {
  query: string;
  data: { type: string; value: unknown };
  events: Record<string, string[]>;
}

/** Receives the events of a subscription, then its end (the node closed, or the subscription was cut). */
export interface EventListener {
  event(event: StreamedEvent): void;
  end(reason: string): void;
}

/**
 * The calls a request makes carry its scope as their last argument (a gateway in front of several
 * nodes: the connection's height floor, what the gateway did; upstreams/requestScope.ts). Clients of
 * one node ignore it.
 */
export interface ChainClient {
  /** Where the node is, for messages ("in-process node", "http://127.0.0.1:26657"). */
  readonly address: string;
  abciQuery(path: string, data: Uint8Array, height?: number, scope?: UpstreamRequestScope): Promise<AbciQueryResponse>;
  /**
   * The same query with the request and response as messages: only a client in
   * the node's process has it (no encoding either way). Undefined for a path
   * that only abciQuery answers.
   */
  queryMessage?(path: string, request: ProtoMessage, height?: number): Promise<MessageQueryResponse | undefined>;
  broadcastTx(tx: Uint8Array, mode: BroadcastMode, scope?: UpstreamRequestScope): Promise<BroadcastResult>;
  tx(hash: Uint8Array, scope?: UpstreamRequestScope): Promise<TxResult>;
  txSearch(query: string, page?: number, perPage?: number, orderBy?: "asc" | "desc", scope?: UpstreamRequestScope): Promise<TxSearchResult>;
  block(height?: number, scope?: UpstreamRequestScope): Promise<Record<string, unknown>>;
  /** The `block_results` RPC's answer (absent: the client cannot read a block's results). */
  blockResults?(height: number, scope?: UpstreamRequestScope): Promise<Record<string, unknown>>;
  validators(height?: number, page?: number, perPage?: number, scope?: UpstreamRequestScope): Promise<Record<string, unknown>>;
  status(scope?: UpstreamRequestScope): Promise<StatusResult>;
  /**
   * Whether committed `height` may get other contents later: a dev chain on which
   * a snapshot was taken (a revert writes its heights again). Absent: never.
   */
  heightsRewritable?(height: number): boolean | Promise<boolean>;
  /** Follows the node's committed height (absent: the client cannot). Returns the function that stops it. */
  watchHeights?(listener: HeightListener): () => void;
  /**
   * Subscribes to the events matching a query (Tendermint 0.34's language,
   * already checked by the caller); resolves once the subscription holds, with
   * the function that ends it. Absent: the client cannot follow events.
   */
  subscribeEvents?(query: string, listener: EventListener): Promise<() => void>;
}

/**
 * The node could not be reached (refused, reset, timed out). The gateway
 * answers 503. `neverDelivered`: the connection was refused, so the request
 * cannot have reached the node (after a reset or a timeout it may have).
 */
export class NodeUnavailableError extends Error {
  constructor(
    readonly nodeAddress: string,
    reason: string,
    readonly neverDelivered = false,
  ) {
    super(`node ${nodeAddress} is unavailable: ${reason}`);
  }
}

/** The node answered with a JSON-RPC error object. */
export class NodeRpcError extends Error {
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: string | undefined,
  ) {
    super(data ? `${rpcMessage}: ${data}` : rpcMessage);
  }
}
