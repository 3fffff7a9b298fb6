import type { StreamedEvent } from "../client/chainClient.js";

/** The ChainClient methods a worker asks the node's process to run (the rest of the interface is messages of its own). */
export const CALLED_METHODS = ["abciQuery", "broadcastTx", "tx", "txSearch", "block", "blockResults", "validators", "status", "heightsRewritable"] as const;
export type CalledMethod = (typeof CALLED_METHODS)[number];

/** An error as it crosses the channel: the classes the REST side tells apart keep their fields. */
export type SentError =
  | { name: "NodeRpcError"; code: number; rpcMessage: string; data?: string }
  | { name: "NodeUnavailableError"; nodeAddress: string; message: string }
  | { name: "Error"; message: string };

/** From a REST worker to the main process. */
export type WorkerToMain =
  | { kind: "call"; id: number; method: CalledMethod; args: unknown[] }
  | { kind: "subscribe"; id: number; query: string }
  | { kind: "unsubscribe"; id: number }
  /** GET /metrics: the main process gathers every process's metrics and replies with the list. */
  | { kind: "metrics"; id: number }
  /** The answer to collectMetrics. */
  | { kind: "metricsJson"; id: number; metrics: object[] }
  | { kind: "listening"; url: string };

/** From the main process to a REST worker. */
export type MainToWorker =
  | { kind: "reply"; id: number; result?: unknown; error?: SentError }
  | { kind: "height"; latest: number | undefined }
  | { kind: "event"; id: number; event: StreamedEvent }
  | { kind: "end"; id: number; reason: string }
  | { kind: "collectMetrics"; id: number }
  | { kind: "close" };

/** What a worker is told to run, in its environment (WORKER_JOB_VARIABLE) as JSON. */
export interface WorkerJob {
  command: "start" | "gateway";
  /** app.toml as the main process read it, with the command line's overrides. */
  app: import("../config/appConfig.js").AppConfig;
  logFormat: "text" | "json";
  /** gateway: the node's RPC URL. */
  node?: string;
  /** gateway: every node (several: the multi-node client). */
  upstreams?: import("../client/upstreams/upstreamSettings.js").UpstreamList;
  /** gateway: the naming profile from --names (else app.names). */
  names?: string;
  /** start: config.toml's subscription bounds, for GET /events. */
  eventLimits?: { maxClients: number; maxPerClient: number };
  /** start: the node's LMDB copy of the latest state, which the worker reads itself (absent: every read goes to the node). */
  replica?: ReplicaJob;
  /** The SharedHeight file (slot 0: the main process's; slot 1 + index: each worker's) and its slots. */
  heightFile: string;
  heightSlots: number;
}

/** Where a `start` worker finds the node's copy of the latest state, and what it needs to run the modules' queries over it. */
export interface ReplicaJob {
  dir: string;
  chainId: string;
  /** Query paths the node answers with its own handlers (simulate, the tx and node services): always asked of the node. */
  servedPaths: string[];
}

export const WORKER_JOB_VARIABLE = "CHAIN_REST_WORKER_JOB";
/** The worker's place, 0 to api.workers - 1 (a worker started again in place of one that died takes its place). */
export const WORKER_INDEX_VARIABLE = "CHAIN_REST_WORKER_INDEX";
