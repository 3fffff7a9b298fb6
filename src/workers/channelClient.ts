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
import type { SharedHeight } from "../client/sharedHeight.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import type { MainLink } from "./mainLink.js";
import type { CalledMethod, MainToWorker } from "./messages.js";

/** Queries a worker answers itself (replicaQueries.ts); undefined: this one goes to the node. */
export interface LocalQueries {
  /** undefined, or a promise of undefined (the copy moved on during the query): the node answers. */
  abciQuery(path: string, data: Uint8Array, height?: number): Promise<AbciQueryResponse | undefined> | undefined;
  queryMessage(path: string, request: ProtoMessage, height?: number): Promise<MessageQueryResponse | undefined> | undefined;
}

/**
 * ChainClient of a REST worker in `start`: each call runs on the node's
 * process (the embedded node's store has one opener), over the cluster's
 * message channel with structured-clone serialization (bytes stay bytes).
 * Heights come as messages at each commit (and, exact at any instant, in the
 * shared height file, which the answer cache reads before it reuses an answer).
 * Calls in flight are bounded by the requests the worker answers at once.
 * With `local` (the node's copy of the latest state), module queries at the
 * latest height are answered in the worker, without a message.
 */
export class ChannelClient implements ChainClient {
  readonly address = "node process";
  private readonly heightListeners = new Set<HeightListener>();
  private readonly subscriptions = new Map<number, EventListener>();

  constructor(
    private readonly link: MainLink,
    private readonly height: SharedHeight,
    private readonly local?: LocalQueries,
  ) {
    link.on((message) => this.receive(message));
  }

  abciQuery(path: string, data: Uint8Array, height?: number): Promise<AbciQueryResponse> {
    const ask = () => this.call("abciQuery", [path, data, height]) as Promise<AbciQueryResponse>;
    return this.local?.abciQuery(path, data, height)?.then((answer) => answer ?? ask()) ?? ask();
  }
  /** Only what `local` answers (undefined: the engine asks abciQuery, which goes to the node). */
  queryMessage(path: string, request: ProtoMessage, height?: number): Promise<MessageQueryResponse | undefined> {
    return this.local?.queryMessage(path, request, height) ?? Promise.resolve(undefined);
  }
  broadcastTx(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    return this.call("broadcastTx", [tx, mode]) as Promise<BroadcastResult>;
  }
  tx(hash: Uint8Array): Promise<TxResult> {
    return this.call("tx", [hash]) as Promise<TxResult>;
  }
  txSearch(query: string, page?: number, perPage?: number, orderBy?: "asc" | "desc"): Promise<TxSearchResult> {
    return this.call("txSearch", [query, page, perPage, orderBy]) as Promise<TxSearchResult>;
  }
  block(height?: number): Promise<Record<string, unknown>> {
    return this.call("block", [height]) as Promise<Record<string, unknown>>;
  }
  blockResults(height: number): Promise<Record<string, unknown>> {
    return this.call("blockResults", [height]) as Promise<Record<string, unknown>>;
  }
  validators(height?: number, page?: number, perPage?: number): Promise<Record<string, unknown>> {
    return this.call("validators", [height, page, perPage]) as Promise<Record<string, unknown>>;
  }
  status(): Promise<StatusResult> {
    return this.call("status", []) as Promise<StatusResult>;
  }

  /** Asked of the node's process for each pinned answer; not knowing counts as "may change" (no `immutable`). */
  async heightsRewritable(height: number): Promise<boolean> {
    return ((await this.call("heightsRewritable", [height]).catch(() => true)) as boolean | undefined) ?? false;
  }

  watchHeights(listener: HeightListener): () => void {
    this.heightListeners.add(listener);
    listener(this.height.read()); // the main process wrote it before it started this worker
    return () => this.heightListeners.delete(listener);
  }

  async subscribeEvents(query: string, listener: EventListener): Promise<() => void> {
    const id = this.link.id();
    this.subscriptions.set(id, listener);
    try {
      await this.link.request({ kind: "subscribe", id, query });
    } catch (err) {
      this.subscriptions.delete(id);
      throw err;
    }
    return () => {
      if (this.subscriptions.delete(id)) this.link.send({ kind: "unsubscribe", id });
    };
  }

  private call(method: CalledMethod, args: unknown[]): Promise<unknown> {
    return this.link.request({ kind: "call", id: this.link.id(), method, args });
  }

  private receive(message: MainToWorker): void {
    switch (message.kind) {
      case "height":
        for (const listener of this.heightListeners) listener(message.latest);
        return;
      case "event":
        this.subscriptions.get(message.id)?.event(message.event);
        return;
      case "end": {
        const listener = this.subscriptions.get(message.id);
        this.subscriptions.delete(message.id);
        listener?.end(message.reason);
        return;
      }
      default:
        return; // the worker's own messages
    }
  }
}
