import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { ModuleReader, ModuleWriter } from "../store/moduleStore.js";

/** Chain-wide facts every module may need. */
export interface ChainInfo {
  chainId: string;
  bech32Prefix: string;
}

export interface ModuleContext {
  chain: ChainInfo;
  codec: Codec;
}

export interface QueryContext extends ModuleContext {
  /** This module's state at the queried height. */
  store: ModuleReader;
  /** Another module's state at the same height. */
  storeOf(module: string): ModuleReader;
}

export type QueryHandler = (request: ProtoMessage, ctx: QueryContext) => Promise<ProtoMessage>;

/**
 * One module of the embedded node: its state layout, genesis import, and the
 * handlers of its query service (by method name), which take and return
 * decoded messages; the query router does the protobuf bytes around them.
 */
export interface NodeModule {
  /** Store prefix and app_state key. */
  name: string;
  /** Full name of the GenesisState message. */
  genesisType: string;
  /** Full name of the query service, e.g. "core.bank.v1beta1.Query". */
  queryService: string;
  queries: Record<string, QueryHandler>;
  /** Throws an Error whose message starts with the offending field ("balances[2].address: ..."). */
  validateGenesis(state: ProtoMessage, ctx: ModuleContext): void;
  initGenesis(state: ProtoMessage, store: ModuleWriter, ctx: ModuleContext): void;
}
