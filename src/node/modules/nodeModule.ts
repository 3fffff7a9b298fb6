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
  paramSubspaces: ParamSubspaces;
}

/** What a module's ExportGenesis reads: the state at a height, and whether the app prepared it for a zero-height genesis. */
export interface ExportContext extends QueryContext {
  /**
   * --for-zero-height: the app's prepForZeroHeightGenesis has run on this state, so the heights the
   * irismod steps carry into the new chain (HTLC expirations, random's queue) are already relative.
   */
  forZeroHeight: boolean;
}

/** An ABCI event as the real system emits it: string attributes. */
export interface AbciEvent {
  type: string;
  attributes: Array<{ key: string; value: string }>;
}

/** A validator's vote in the last commit, as BeginBlock's LastCommitInfo carries it. */
interface CommitVote {
  /** Consensus address bytes. */
  address: Uint8Array;
  power: bigint;
  signed: boolean;
}

/** What the begin and end blockers know of the block being made (RequestBeginBlock). */
export interface BlockInfo {
  /** The consensus address of this block's proposer. */
  proposer: Uint8Array;
  /** The validators of the previous block and whether each signed it. */
  lastCommit: CommitVote[];
  /** The previous block's id hash and part-set hash (uppercase hex, empty for the first block). */
  lastBlockId: { hash: string; partsTotal: number; partsHash: string };
  /** The app hash the header carries: the state after the previous block (uppercase hex). */
  appHash: string;
  /** The next validators' hash as the previous header announced it (uppercase hex, empty for the first block). */
  nextValidatorsHash: string;
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
  /** Set for begin and end blockers and for message handlers in a block (not CheckTx). */
  block?: BlockInfo;
  /** Set for message handlers: the raw bytes of the transaction being run (ctx.TxBytes()). */
  txBytes?: Uint8Array;
  paramSubspaces: ParamSubspaces;
}

export type QueryHandler = (request: ProtoMessage, ctx: QueryContext) => Promise<ProtoMessage>;

/** Executes one Msg; returns the Msg's response message (the MsgXResponse of its Msg service). */
type MsgHandler = (msg: ProtoMessage, ctx: ExecContext) => Promise<ProtoMessage>;

export interface MsgRoute {
  handler: MsgHandler;
  /** msg.ValidateBasic(): stateless checks, run before the ante handler (throw a TxError). */
  validateBasic?(msg: ProtoMessage, chain: ChainInfo, codec: Codec): void;
  /** The bech32 account addresses that must sign the Msg (GetSigners), in order. */
  signers(msg: ProtoMessage, chain: ChainInfo): string[];
  /** The message.action attribute: msg.Type() of the real legacy Msg (e.g. "send", "delegate"). */
  action: string;
  /** The full name of the Msg service's response type, when it is not "<Msg>Response" (coinswap's MsgSwapOrder → MsgSwapCoinResponse). */
  responseType?: string;
}

/** An ante decorator of a module: sees every Msg of the transaction. */
export type AnteCheck = (msgs: ReadonlyArray<{ typeName: string; msg: ProtoMessage }>, ctx: ExecContext) => Promise<void>;

/**
 * The callbacks of a module that runs request contexts through the service module (irismod
 * v1.3.1 RegisterResponseCallback / RegisterStateCallback): a completed batch's outputs (with the
 * error text when fewer than the threshold came), and a context paused by the service module.
 */
export interface ServiceCallbacks {
  response(ctx: ExecContext, contextId: Uint8Array, outputs: string[], error?: string): Promise<void>;
  state(ctx: ExecContext, contextId: Uint8Array, cause: string): Promise<void>;
}

/**
 * A module service (irismod v1.3.1 service/types ModuleService): a service a module answers itself,
 * in the same block, instead of a provider account (the oracle module's "oracle-price").
 */
export interface ModuleService {
  serviceName: string;
  /** Its provider: the account whose address is AddressHash of this text (SHA-256, first 20 bytes), as OraclePriceServiceProvider is. */
  providerKey: string;
  request(ctx: ExecContext, input: string): Promise<{ result: string; output: string }>;
}

/** A module parameter as the params module serves it: the value is the amino JSON text. */
export type ParamValues = Record<string, string>;

/** A module's parameter subspace (x/params): its name and current values by key. */
export interface ParamSubspace {
  subspace: string;
  read(store: KVReader, ctx: ModuleContext): Promise<ParamValues>;
  /**
   * x/params Subspace.Update for a parameter-change proposal: decodes the amino
   * JSON value (over the current value, for structs), validates and stores it.
   * Throws ParamKeyError for a key the subspace does not have, an Error with the
   * real validation message otherwise.
   */
  update?(store: KVStore, key: string, value: string, ctx: ModuleContext): Promise<void>;
}

/**
 * The x/params registry: every subspace by name, with the module whose store
 * holds it. Built where the node is assembled and handed to modules in their
 * context, so that params and gov need not import the module list.
 */
export type ParamSubspaces = ReadonlyMap<string, { module: string; params: ParamSubspace }>;

export function paramSubspacesOf(modules: readonly NodeModule[]): ParamSubspaces {
  return new Map(modules.flatMap((m) => (m.params ? [[m.params.subspace, { module: m.name, params: m.params }] as const] : [])));
}

/**
 * A module's genesis checked and written in one pass (NodeModule.genesisImport): the same checks,
 * in the same order and with the same errors, as validateGenesis, and the same writes as initGenesis.
 */
interface GenesisImport {
  /** The lists (repeated fields of the GenesisState) whose entries come by `entries`. */
  readonly lists: readonly string[];
  /** Entries of `list`, decoded, from its entry number `first` on: checked, then written. */
  entries(list: string, entries: ProtoMessage[], first: number): void;
  /** The rest of the state (everything but the entries handed to `entries`): the last checks, then its writes. */
  end(state: ProtoMessage): void;
}

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
  /** Queries of the module's legacy querier that the Query service lacks (for the legacy routes), by method of this service. */
  legacyQuerier?: { service: string; queries: Record<string, QueryHandler> };
  /** Throws an Error whose message starts with the offending field ("balances[2].address: ..."). */
  validateGenesis(state: ProtoMessage, ctx: ModuleContext): void;
  /**
   * The same checks as validateGenesis, for a module whose genesis lists can hold millions of
   * entries: a generator that yields every GENESIS_STEP entries, so that the genesis import
   * turns the event loop (its progress lines) while it validates. validateGenesis runs it whole.
   */
  genesisValidationSteps?(state: ProtoMessage, ctx: ModuleContext): Generator<void>;
  initGenesis(state: ProtoMessage, ctx: ExecContext): Promise<void>;
  /**
   * validateGenesis and initGenesis in one pass, for a module whose genesis lists can hold
   * millions of entries: a first start hands it the entries of `lists` a decoded chunk at a
   * time, each checked and written at once, so that the decoded entries need not stay in
   * memory until written, nor be checked and unpacked twice. The writes go to an in-memory
   * layer that is dropped, with the store left untouched, if any module's genesis is refused.
   */
  genesisImport?(ctx: ExecContext): GenesisImport;
  /**
   * ExportGenesis: the module's state at the context's height as its GenesisState (the fields
   * initGenesis reads back; null where the real genesis carries null). A module without one is
   * named by `export` and left out of the exported app_state.
   */
  exportGenesis?(ctx: ExportContext): Promise<ProtoMessage | null>;
  /** Msg handlers by full type name ("core.bank.v1beta1.MsgSend"). */
  messages?: Record<string, MsgRoute>;
  /**
   * A decorator the hub's app adds to the ante handler for this module (irishub app/ante.go),
   * run after the signatures are verified; a refusal fails the whole transaction (no fee, no sequence).
   */
  anteCheck?: AnteCheck;
  beginBlock?(ctx: ExecContext): Promise<void>;
  endBlock?(ctx: ExecContext): Promise<void>;
  /** The params subspace of this module (x/params): name and current values by key. */
  params?: ParamSubspace;
  /** The consensus validator set this module decides (staking): ed25519 keys and voting power. */
  validatorSet?(store: KVReader, ctx: ModuleContext): Promise<Array<{ publicKey: Uint8Array; power: bigint }>>;
  /** Its callbacks for the request contexts it creates in the service module (its module_name). */
  serviceCallbacks?: ServiceCallbacks;
  /** The service it answers itself, registered with the service module under its name (RegisterModuleService). */
  moduleService?: ModuleService;
  /** This module's part of the development genesis written by `init`. */
  devGenesis?(ctx: DevGenesisContext): unknown;
}
