/**
 * The consensus engine's JSON-RPC results (v0.34) as the services read them: 64-bit integers
 * as decimal strings, hashes and addresses as uppercase hex, byte strings as base64, times as
 * RFC 3339. Only the fields chain-rest reads are listed.
 */

export interface RpcBlockId {
  hash?: string;
  parts?: { total?: number; hash?: string };
}

interface RpcHeader {
  version?: { block?: string; app?: string };
  chain_id?: string;
  height?: string;
  time?: string;
  last_block_id?: RpcBlockId;
  last_commit_hash?: string;
  data_hash?: string;
  validators_hash?: string;
  next_validators_hash?: string;
  consensus_hash?: string;
  app_hash?: string;
  last_results_hash?: string;
  evidence_hash?: string;
  proposer_address?: string;
}

interface RpcCommitSig {
  block_id_flag?: number;
  validator_address?: string;
  timestamp?: string;
  signature?: string | null;
}

export interface RpcBlock {
  header?: RpcHeader;
  data?: { txs?: string[] | null };
  last_commit?: { height?: string; round?: number; block_id?: RpcBlockId; signatures?: RpcCommitSig[] };
}

/** The `block` result. */
export interface RpcBlockResult {
  block_id?: RpcBlockId;
  block?: RpcBlock;
}

/** `status`'s node_info. */
export interface RpcNodeInfo {
  protocol_version?: { p2p?: string; block?: string; app?: string };
  id?: string;
  listen_addr?: string;
  network?: string;
  version?: string;
  channels?: string;
  moniker?: string;
  other?: { tx_index?: string; rpc_address?: string };
}

/** The `validators` result. */
export interface RpcValidatorsResult {
  block_height?: string;
  validators?: Array<{ address?: string; pub_key?: { type?: string; value?: string }; voting_power?: string; proposer_priority?: string }>;
}

/** A CheckTx / DeliverTx result. */
export interface RpcTxResult {
  code?: number;
  codespace?: string;
  data?: string;
  log?: string;
  info?: string;
  gas_wanted?: string;
  gas_used?: string;
  events?: unknown[];
}

/** One entry of a result's `log` (the SDK's ABCIMessageLog). */
export interface RpcMessageLog {
  msg_index?: number;
  log?: string;
  events?: Array<{ type?: string; attributes?: Array<{ key?: string; value?: string }> }>;
}
