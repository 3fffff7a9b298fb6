import type { Codec } from "../../codec/codec.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import type { KVReader, KVStore } from "../store/kv.js";
import type { GasMeter } from "../tx/gasMeter.js";
import type { DevGenesisContext } from "./devGenesisContext.js";

/** Chain-wide facts every module may need. */
export interface ChainInfo {
  chainId: string;
  /** Account address prefix ("hub"); operator and consensus prefixes add "valoper" / "valcons". */
  bech32Prefix: string;
}

export interface ModuleContext {
  chain: ChainInfo;
  codec: Codec;
}

export interface QueryContext extends ModuleContext {
  /** This module's state at the queried height. */
  store: KVReader;
  /** Another module's state at the same height. */
  storeOf(module: string): KVReader;
  /** The queried height. */
  height: number;
}

/** An ABCI event as the real system emits it: string attributes. */
export interface AbciEvent {
  type: string;
  attributes: Array<{ key: string; value: string }>;
}

/** What a message handler, begin/end blocker or genesis sees of the chain. */
export interface ExecContext extends ModuleContext {
  store: KVStore;
  storeOf(module: string): KVStore;
  /** The height of the block being executed. */
  height: number;
  /** The block time. */
  time: Date;
  gas: GasMeter;
  emit(event: AbciEvent): void;
}

export type QueryHandler = (request: ProtoMessage, ctx: QueryContext) => Promise<ProtoMessage>;

/** Executes one Msg; returns the Msg's response message (the MsgXResponse of its Msg service). */
export type MsgHandler = (msg: ProtoMessage, ctx: ExecContext) => Promise<ProtoMessage>;

export interface MsgRoute {
  handler: MsgHandler;
  /** msg.ValidateBasic(): stateless checks, run before the ante handler (throw a TxError). */
  validateBasic?(msg: ProtoMessage, chain: ChainInfo): void;
  /** The bech32 account addresses that must sign the Msg (GetSigners), in order. */
  signers(msg: ProtoMessage): string[];
  /** The message.action attribute: msg.Type() of the real legacy Msg (e.g. "send", "delegate"). */
  action: string;
}

/** A module parameter as the params module serves it: the value is the amino JSON text. */
export type ParamValues = Record<string, string>;

/**
 * One module of the embedded node: its state layout, genesis import, query
 * handlers (by method name of its Query service) and, optionally, its
 * messages, block hooks, parameters and development genesis.
 */
export interface NodeModule {
  /** Store prefix and app_state key. */
  name: string;
  /** Full name of the GenesisState message. */
  genesisType: string;
  /** Full name of the query service, e.g. "core.bank.v1beta1.Query". */
  queryService?: string;
  queries?: Record<string, QueryHandler>;
  /** Throws an Error whose message starts with the offending field ("balances[2].address: ..."). */
  validateGenesis(state: ProtoMessage, ctx: ModuleContext): void;
  initGenesis(state: ProtoMessage, ctx: ExecContext): Promise<void>;
  /** Msg handlers by full type name ("core.bank.v1beta1.MsgSend"). */
  messages?: Record<string, MsgRoute>;
  beginBlock?(ctx: ExecContext): Promise<void>;
  endBlock?(ctx: ExecContext): Promise<void>;
  /** The params subspace of this module (x/params): name and current values by key. */
  params?: { subspace: string; read(store: KVReader, ctx: ModuleContext): Promise<ParamValues> };
  /** The consensus validator set this module decides (staking): ed25519 keys and voting power. */
  validatorSet?(store: KVReader, ctx: ModuleContext): Promise<Array<{ publicKey: Uint8Array; power: bigint }>>;
  /** This module's part of the development genesis written by `init`. */
  devGenesis?(ctx: DevGenesisContext): unknown;
}
