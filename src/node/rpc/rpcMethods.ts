import type { ChainClient } from "../../client/chainClient.js";
import { NodeRpcError } from "../../client/chainClient.js";
import type { EmbeddedNode } from "../embeddedNode.js";
import { fieldText } from "../../codec/fieldText.js";
import { searchBlocks } from "../chain/blockSearch.js";
import { SearchError } from "../chain/searchPaging.js";
import { devChainMethods } from "./devChainMethods.js";
import { consensusState, dumpConsensusState } from "./consensusState.js";

import type { RpcMethod } from "./rpcParams.js";

export type { RpcMethod };

/** blockchain returns at most this many block metas (the engine's limit). */
const MAX_BLOCK_METAS = 20;

/**
 * The node's JSON-RPC methods with the consensus engine's names, parameters
 * and result shapes. Most are the node's ChainClient surface as it is; the
 * rest read the node's committed blocks directly.
 */
export function rpcMethods(node: EmbeddedNode, client: ChainClient): Record<string, RpcMethod> {
  const committed = async (height: number | undefined) => {
    const at = height === undefined || height === 0 ? node.height : height;
    if (at < 0 || at > node.height)
      throw new NodeRpcError(-32603, "Internal error", `height ${at} must be less than or equal to the current blockchain height ${node.height}`);
    const record = await node.committed(at);
    if (!record) throw new NodeRpcError(-32603, "Internal error", `height ${at} is not available, lowest height is 1`);
    return record;
  };
  return {
    health: async () => ({}),
    status: () => client.status(),
    abci_info: async () => ({
      response: {
        data: "chain-rest",
        last_block_height: String(node.height),
        last_block_app_hash: Buffer.from((await committed(undefined)).appHash, "hex").toString("base64"),
      },
    }),
    abci_query: async (p) => {
      const r = await client.abciQuery(p.string("path"), p.hexBytes("data"), p.int("height") ?? 0);
      // The ABCI struct's omitempty fields disappear when zero or empty.
      const response: Record<string, unknown> = {};
      if (r.code) response.code = r.code;
      if (r.log) response.log = r.log;
      if (r.value.length) response.value = Buffer.from(r.value).toString("base64");
      response.height = String(r.height);
      if (r.codespace) response.codespace = r.codespace;
      return { response };
    },
    broadcast_tx_async: (p) => client.broadcastTx(p.bytes("tx"), "async"),
    broadcast_tx_sync: (p) => client.broadcastTx(p.bytes("tx"), "sync"),
    broadcast_tx_commit: (p) => client.broadcastTx(p.bytes("tx"), "commit"),
    tx: (p) => client.tx(p.bytes("hash")),
    tx_search: (p) => client.txSearch(p.string("query"), p.int("page") ?? 1, p.int("per_page") ?? 30, orderBy(p.string("order_by"))),
    block_search: async (p) => {
      try {
        return await searchBlocks(node.store, node.height, p.string("query"), p.int("page") ?? 1, p.int("per_page") ?? 30, p.string("order_by"));
      } catch (err) {
        if (err instanceof SearchError) throw new NodeRpcError(-32603, "Internal error", err.message);
        throw err;
      }
    },
    block: (p) => client.block(p.int("height")),
    block_results: async (p) => (await committed(p.int("height"))).results,
    commit: async (p) => {
      const record = await committed(p.int("height"));
      return { signed_header: { header: record.block.block.header, commit: record.commit }, canonical: Number(record.commit.height) !== node.height };
    },
    validators: (p) => client.validators(p.int("height"), p.int("page") ?? 1, p.int("per_page") ?? 30),
    blockchain: async (p) => {
      const max = Math.min(p.int("maxHeight") || node.height, node.height);
      const min = Math.max(p.int("minHeight") || 1, max - MAX_BLOCK_METAS + 1);
      const metas = [];
      for (let h = max; h >= min; h--) {
        const record = await committed(h);
        const size = Buffer.byteLength(JSON.stringify(record.block.block));
        metas.push({
          block_id: record.block.block_id,
          block_size: String(size),
          header: record.block.block.header,
          num_txs: fieldText(record.block.block.data.txs?.length, "0"),
        });
      }
      return { last_height: String(node.height), block_metas: metas };
    },
    genesis: async () => ({ genesis: await node.genesisDocument() }),
    net_info: async () => ({ listening: true, listeners: [], n_peers: "0", peers: [] }),
    consensus_state: async () => consensusState(await committed(undefined)),
    dump_consensus_state: async () => dumpConsensusState(await committed(undefined)),
    num_unconfirmed_txs: async () => ({ n_txs: String(node.mempool.size), total: String(node.mempool.size), total_bytes: "0", txs: null }),
    ...devChainMethods(node),
  };
}

function orderBy(value: string): "asc" | "desc" {
  if (value === "" || value === "asc") return "asc";
  if (value === "desc") return "desc";
  throw new NodeRpcError(-32603, "Internal error", "expected order_by to be either `asc` or `desc` or empty");
}
