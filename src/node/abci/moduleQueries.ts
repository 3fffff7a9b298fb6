import type { AbciQueryResponse, MessageQueryResponse } from "../../client/chainClient.js";
import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { ChainInfo, NodeModule, ParamSubspaces, QueryContext } from "../modules/nodeModule.js";
import { ModuleReader } from "../store/moduleStore.js";
import { ReplicaMoved } from "../store/replicaReads.js";
import type { StateReader } from "../store/versionedStore.js";
import { abciQueryFailure } from "./abciResult.js";
import type { QueryRouter } from "./queryRouter.js";

/**
 * The modules' query handlers run over a given state: the node's (its store at
 * a kept height) and a REST worker's (the latest state's replica, latestReplica.ts).
 * A handler's failure is its ABCI error, as the real app reports it.
 */
export class ModuleQueries {
  constructor(
    private readonly router: QueryRouter,
    private readonly chain: ChainInfo,
    private readonly codec: Codec,
    private readonly paramSubspaces: ParamSubspaces,
  ) {}

  /** Whether a module answers this path. */
  has(path: string): boolean {
    return this.router.has(path);
  }

  /** The answer in protobuf bytes (an ABCI query). */
  async query(path: string, data: Uint8Array, state: StateReader, at: number): Promise<AbciQueryResponse> {
    const outcome = await this.answer(state, at, (context) => this.router.query(path, data, context));
    return "failure" in outcome ? outcome.failure : { code: 0, codespace: "", log: "", value: outcome.answer, height: at };
  }

  /** The answer as a message (no protobuf bytes either way), for callers in the same process. */
  async queryMessage(path: string, request: ProtoMessage, state: StateReader, at: number): Promise<MessageQueryResponse> {
    const outcome = await this.answer(state, at, (context) => this.router.answer(path, request, context));
    return "failure" in outcome ? outcome.failure : { code: 0, codespace: "", log: "", response: outcome.answer, height: at };
  }

  private async answer<T>(
    state: StateReader,
    at: number,
    answer: (context: (module: NodeModule) => QueryContext) => Promise<T>,
  ): Promise<{ answer: T } | { failure: AbciQueryResponse }> {
    try {
      const context = (module: NodeModule): QueryContext => ({
        chain: this.chain,
        codec: this.codec,
        height: at,
        store: new ModuleReader(state, module.name),
        storeOf: (name) => new ModuleReader(state, name),
        paramSubspaces: this.paramSubspaces,
      });
      return { answer: await answer(context) };
    } catch (err) {
      if (err instanceof ReplicaMoved) throw err; // not the query's failure: the worker asks it again (replicaQueries.ts)
      return { failure: abciQueryFailure(err, at) };
    }
  }
}
