import type { AbciQueryResponse, MessageQueryResponse } from "../client/chainClient.js";
import type { Codec } from "../codec/codec.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { ModuleQueries } from "../node/abci/moduleQueries.js";
import { QueryRouter } from "../node/abci/queryRouter.js";
import { NODE_MODULES } from "../node/modules/index.js";
import { paramSubspacesOf } from "../node/modules/nodeModule.js";
import { ReplicaView, type ReplicaState } from "../node/store/latestReplica.js";
import { ReplicaMoved } from "../node/store/replicaReads.js";
import type { LocalQueries } from "./channelClient.js";
import type { ReplicaJob } from "./messages.js";

/**
 * A `start` worker's own answers to module queries at the latest height: the
 * node's query handlers over the LMDB copy of the latest state the node keeps
 * for its workers (latestReplica.ts), read in this process without a message.
 * Other heights, paths the node answers itself (simulate, the tx and node
 * services) and a copy that is not usable go to the node as before (undefined).
 */
export class ReplicaQueries implements LocalQueries {
  private readonly served: Set<string>;

  constructor(
    /** Read-only for callers (its counts). */
    readonly view: ReplicaView,
    private readonly queries: ModuleQueries,
    servedPaths: string[],
  ) {
    this.served = new Set(servedPaths);
  }

  static open(job: ReplicaJob, bech32Prefix: string, codec: Codec): ReplicaQueries {
    const queries = new ModuleQueries(new QueryRouter(NODE_MODULES, codec), { chainId: job.chainId, bech32Prefix }, codec, paramSubspacesOf(NODE_MODULES));
    return new ReplicaQueries(ReplicaView.open(job.dir), queries, job.servedPaths);
  }

  abciQuery(path: string, data: Uint8Array, height = 0): Promise<AbciQueryResponse | undefined> | undefined {
    return this.answer(path, height, (state) => this.queries.query(path, data, state, state.version));
  }

  queryMessage(path: string, request: ProtoMessage, height = 0): Promise<MessageQueryResponse | undefined> | undefined {
    return this.answer(path, height, (state) => this.queries.queryMessage(path, request, state, state.version));
  }

  /**
   * Runs `answer` over one snapshot of the copy when it holds the height asked (0: the latest).
   * A query over kept reads that met a newer copy at a read it had not kept (rare: a commit
   * during the query) resolves undefined: the node answers it.
   */
  private answer<T>(path: string, height: number, answer: (state: ReplicaState) => Promise<T>): Promise<T | undefined> | undefined {
    if (this.served.has(path) || !this.queries.has(path)) return undefined;
    const state = this.view.snapshot();
    if (!state) return undefined;
    if (height !== 0 && height !== state.version) {
      state.done();
      return undefined;
    }
    return answer(state)
      .catch((err: unknown) => {
        if (err instanceof ReplicaMoved) return undefined;
        throw err;
      })
      .finally(() => state.done());
  }
}
