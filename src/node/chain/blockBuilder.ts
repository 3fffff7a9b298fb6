import { sha256 } from "@noble/hashes/sha2.js";
import { consensusAddressBytes } from "../../codec/addresses.js";
import type { AbciEvent } from "../modules/nodeModule.js";
import type { TxOutcome } from "../tx/runTx.js";
import {
  EMPTY_BLOCK_ID,
  hex,
  RPC_ED25519_KEY_TYPE,
  type CommittedHeight,
  type RpcBlock,
  type RpcBlockId,
  type RpcCommit,
  type RpcEvent,
  type RpcTxResult,
  type RpcValidator,
} from "./blockStore.js";
import type { ValidatorKey } from "./validatorKey.js";

export interface BlockParts {
  chainId: string;
  height: number;
  time: Date;
  txs: Uint8Array[];
  outcomes: TxOutcome[];
  beginEvents: AbciEvent[];
  endEvents: AbciEvent[];
  validators: Array<{ publicKey: Uint8Array; power: bigint }>;
  /** The previous height, absent for the first block. */
  previous?: CommittedHeight;
  /** App hash after this block's state writes. */
  appHash: string;
  consensusParams: unknown;
  key: ValidatorKey;
}

const sha = (text: string) => hex(sha256(new TextEncoder().encode(text)));

/**
 * Assembles what a committed height records, in the consensus engine's JSON
 * form. Hashes are SHA-256 over canonical JSON of the parts (not the
 * engine's Merkle trees); the commit carries the node's ed25519 signature.
 */
export function buildCommittedHeight(parts: BlockParts): CommittedHeight {
  const validators = parts.validators.map(validatorJson);
  const results = parts.outcomes.map(txResultJson);
  const txHashes = parts.txs.map((tx) => hex(sha256(tx)));
  const header = {
    version: { block: "11" },
    chain_id: parts.chainId,
    height: String(parts.height),
    time: parts.time.toISOString(),
    last_block_id: parts.previous?.block.block_id ?? EMPTY_BLOCK_ID,
    last_commit_hash: parts.previous ? sha(JSON.stringify(parts.previous.commit)) : "",
    data_hash: txHashes.length ? sha(txHashes.join("")) : "",
    validators_hash: sha(JSON.stringify(validators)),
    next_validators_hash: sha(JSON.stringify(validators)),
    consensus_hash: sha(JSON.stringify(parts.consensusParams)),
    app_hash: parts.previous?.appHash ?? "",
    last_results_hash: parts.previous?.results.txs_results?.length ? sha(JSON.stringify(parts.previous.results.txs_results)) : "",
    evidence_hash: "",
    proposer_address: parts.key.address,
  };
  const blockBody = {
    header,
    data: { txs: parts.txs.length ? parts.txs.map((tx) => Buffer.from(tx).toString("base64")) : null },
    evidence: { evidence: null },
    last_commit: parts.previous?.commit ?? { height: "0", round: 0, block_id: EMPTY_BLOCK_ID, signatures: [] },
  };
  const blockId: RpcBlockId = { hash: sha(JSON.stringify(header)), parts: { total: 1, hash: sha(JSON.stringify(blockBody)) } };
  const block: RpcBlock = { block_id: blockId, block: blockBody };
  return {
    block,
    commit: commitFor(parts, blockId, validators),
    results: {
      height: String(parts.height),
      txs_results: results.length ? results : null,
      begin_block_events: parts.beginEvents.length ? parts.beginEvents.map(eventJson) : null,
      end_block_events: parts.endEvents.length ? parts.endEvents.map(eventJson) : null,
      validator_updates: null,
      consensus_param_updates: null,
    },
    validators,
    appHash: parts.appHash,
  };
}

/** The precommits that seal the block: this node signs for its own key; other validators are absent. */
function commitFor(parts: BlockParts, blockId: RpcBlockId, validators: RpcValidator[]): RpcCommit {
  const timestamp = parts.time.toISOString();
  return {
    height: String(parts.height),
    round: 0,
    block_id: blockId,
    signatures: validators.map((v) =>
      v.address === parts.key.address
        ? {
            block_id_flag: 2,
            validator_address: v.address,
            timestamp,
            signature: Buffer.from(parts.key.sign(new TextEncoder().encode(`${parts.chainId}/${parts.height}/0/${blockId.hash}`))).toString("base64"),
          }
        : { block_id_flag: 1, validator_address: "", timestamp: "0001-01-01T00:00:00Z", signature: null },
    ),
  };
}

function validatorJson(v: { publicKey: Uint8Array; power: bigint }): RpcValidator {
  return {
    address: hex(consensusAddressBytes(v.publicKey)),
    pub_key: { type: RPC_ED25519_KEY_TYPE, value: Buffer.from(v.publicKey).toString("base64") },
    voting_power: v.power.toString(),
    proposer_priority: "0",
  };
}

function eventJson(event: AbciEvent): RpcEvent {
  return {
    type: event.type,
    attributes: event.attributes.map((a) => ({ key: b64(a.key), value: b64(a.value), index: true })),
  };
}

/** DeliverTx result in the RPC's JSON (omitempty fields left out when zero). */
export function txResultJson(outcome: TxOutcome): RpcTxResult {
  const result: RpcTxResult = { gas_wanted: outcome.gasWanted.toString(), gas_used: outcome.gasUsed.toString(), events: outcome.events.map(eventJson) };
  if (outcome.code) result.code = outcome.code;
  if (outcome.data.length) result.data = Buffer.from(outcome.data).toString("base64");
  if (outcome.log) result.log = outcome.log;
  if (outcome.codespace) result.codespace = outcome.codespace;
  return Object.fromEntries(
    ["code", "data", "log", "gas_wanted", "gas_used", "events", "codespace"].filter((k) => k in result).map((k) => [k, result[k as keyof RpcTxResult]]),
  ) as unknown as RpcTxResult;
}

const b64 = (text: string) => Buffer.from(text).toString("base64");
