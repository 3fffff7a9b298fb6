import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { base64Bytes, hexBytes, int64, timestamp } from "../rpcJson.js";
import type { RpcBlock, RpcBlockId, RpcBlockResult } from "../../client/rpcJsonTypes.js";

/** The `block` RPC result → GetBlockByHeightResponse values (consensus.types.BlockID and Block). */
export function blockResponse(result: RpcBlockResult): ProtoMessage {
  return { block_id: blockId(result.block_id), block: block(result.block) };
}

function blockId(id: RpcBlockId | undefined): ProtoMessage {
  return { hash: hexBytes(id?.hash), part_set_header: { total: id?.parts?.total ?? 0, hash: hexBytes(id?.parts?.hash) } };
}

function block(b: RpcBlock | undefined): ProtoMessage {
  const h = b?.header ?? {};
  return {
    header: {
      version: { block: int64(h.version?.block), app: int64(h.version?.app) },
      chain_id: h.chain_id,
      height: int64(h.height),
      time: timestamp(h.time),
      last_block_id: blockId(h.last_block_id),
      last_commit_hash: hexBytes(h.last_commit_hash),
      data_hash: hexBytes(h.data_hash),
      validators_hash: hexBytes(h.validators_hash),
      next_validators_hash: hexBytes(h.next_validators_hash),
      consensus_hash: hexBytes(h.consensus_hash),
      app_hash: hexBytes(h.app_hash),
      last_results_hash: hexBytes(h.last_results_hash),
      evidence_hash: hexBytes(h.evidence_hash),
      proposer_address: hexBytes(h.proposer_address),
    },
    data: { txs: (b?.data?.txs ?? []).map(base64Bytes) },
    evidence: { evidence: [] },
    last_commit: {
      height: int64(b?.last_commit?.height),
      round: b?.last_commit?.round ?? 0,
      block_id: blockId(b?.last_commit?.block_id),
      signatures: (b?.last_commit?.signatures ?? []).map((s) => ({
        block_id_flag: s.block_id_flag,
        validator_address: hexBytes(s.validator_address),
        timestamp: timestamp(s.timestamp),
        signature: base64Bytes(s.signature),
      })),
    },
  };
}
