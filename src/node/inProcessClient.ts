import type {
  AbciQueryResponse,
  BroadcastMode,
  BroadcastResult,
  ChainClient,
  StatusResult,
  TxResult,
  TxSearchResult,
} from "../client/chainClient.js";
import { NodeRpcError } from "../client/chainClient.js";
import type { EmbeddedNode } from "./embeddedNode.js";

/**
 * ChainClient for the embedded node in the same process: the same surface
 * and result shapes as its JSON-RPC, without the HTTP hop.
 */
export class InProcessClient implements ChainClient {
  readonly address = "in-process node";

  constructor(private readonly node: EmbeddedNode) {}

  abciQuery(path: string, data: Uint8Array, height = 0): Promise<AbciQueryResponse> {
    return this.node.query(path, data, height);
  }

  async status(): Promise<StatusResult> {
    const latest = await this.node.latestBlock();
    const earliest = await this.node.blockMeta(this.node.store.earliestVersion);
    return {
      node_info: {
        protocol_version: { p2p: "8", block: "11", app: "0" },
        network: this.node.chain.chainId,
        version: "",
        moniker: this.node.moniker,
        other: { tx_index: "on", rpc_address: "" },
      },
      sync_info: {
        latest_block_hash: latest.hash,
        latest_app_hash: latest.appHash,
        latest_block_height: String(latest.height),
        latest_block_time: latest.time,
        earliest_block_hash: earliest?.hash ?? "",
        earliest_app_hash: earliest?.appHash ?? "",
        earliest_block_height: String(this.node.store.earliestVersion),
        earliest_block_time: earliest?.time ?? "",
        catching_up: false,
      },
      validator_info: {},
    };
  }

  // The embedded node does not execute transactions or keep blocks' contents yet
  // (the transactions issue adds them); these answer with the RPC's error object.
  broadcastTx(_tx: Uint8Array, _mode: BroadcastMode): Promise<BroadcastResult> {
    return this.unsupported("broadcast_tx");
  }

  tx(_hash: Uint8Array): Promise<TxResult> {
    return this.unsupported("tx");
  }

  txSearch(): Promise<TxSearchResult> {
    return this.unsupported("tx_search");
  }

  block(): Promise<Record<string, unknown>> {
    return this.unsupported("block");
  }

  validators(): Promise<Record<string, unknown>> {
    return this.unsupported("validators");
  }

  private unsupported(method: string): never {
    throw new NodeRpcError(-32601, "Method not found", `${method} is not served by the embedded node yet`);
  }
}
