import { NodeRpcError } from "../../client/chainClient.js";
import type { EmbeddedNode } from "../embeddedNode.js";
import { UnknownSnapshotError } from "../chain/snapshots.js";
import type { RpcMethod } from "./rpcParams.js";

/** advance_blocks makes at most this many blocks per call: one call stays a matter of minutes, not hours. */
export const MAX_ADVANCE_BLOCKS = 10_000;
/** advance_time moves at most this many seconds per call (100 years): block times stay far inside what a protobuf Timestamp holds. */
const MAX_ADVANCE_SECONDS = 100 * 365 * 86_400;

/**
 * The dev chain's steering methods, with CometMock's names, parameters and
 * result shapes (advance_blocks, advance_time), and what CometMock lacks:
 * set_auto_blocks (automatic blocks on or off at run time), snapshot and
 * revert (Hardhat's evm_snapshot/evm_revert without the "evm_"), and dev_chain_status
 * (read-only, like Hardhat's hardhat_metadata): whether a snapshot was ever taken, read at
 * the same moment as the latest height, so that a `gateway --node` knows which pinned answers
 * a revert can never change.
 */
export function devChainMethods(node: EmbeddedNode): Record<string, RpcMethod> {
  return {
    advance_blocks: async (p) => {
      await node.advanceBlocks(bounded(p.int("num_blocks"), "num_blocks", 1, MAX_ADVANCE_BLOCKS));
      return {};
    },
    advance_time: async (p) => {
      const next = node.clock.advance(bounded(p.int("duration_in_seconds"), "duration_in_seconds", 0, MAX_ADVANCE_SECONDS));
      return { new_time: next.toISOString() };
    },
    set_auto_blocks: async (p) => {
      node.autoBlocks = p.bool("enabled");
      return { auto_blocks: node.autoBlocks };
    },
    snapshot: async () => {
      const { id, height } = await node.snapshot();
      return { snapshot_id: String(id), height: String(height) };
    },
    dev_chain_status: async () => ({
      latest_block_height: String(node.height),
      snapshots_taken: node.snapshots.everTaken,
      auto_blocks: node.autoBlocks,
    }),
    revert: async (p) => {
      const id = p.int("snapshot_id");
      if (id === undefined) throw new NodeRpcError(-32602, "Invalid params", "snapshot_id is required: the id snapshot gave");
      try {
        return { height: String((await node.revert(id)).height) };
      } catch (err) {
        if (err instanceof UnknownSnapshotError) throw new NodeRpcError(-32602, "Invalid params", err.message);
        if (err instanceof RangeError) throw new NodeRpcError(-32603, "Internal error", err.message); // the store cannot go that far back
        throw err;
      }
    },
  };
}

function bounded(value: number | undefined, name: string, min: number, max: number): number {
  if (value === undefined || value < min || value > max) {
    throw new NodeRpcError(-32602, "Invalid params", `${name} must be an integer from ${min} to ${max}, got ${value ?? "nothing"}`);
  }
  return value;
}
