import type { NodeUnavailableError } from "../chainClient.js";
import type { UpstreamNode } from "./upstreamNode.js";

/** The nodes behind a multi-node gateway, as broadcasts and event subscriptions choose among them. */
export interface NodePool {
  readonly nodes: readonly UpstreamNode[];
  /** The nodes that may answer at the latest height now. */
  eligibleNodes(): UpstreamNode[];
  /** Of the expected chain and not cooling down. */
  usable(node: UpstreamNode): boolean;
  /** Runs a call on a node, counting it in flight and its failures. */
  run<T>(node: UpstreamNode, call: () => Promise<T>): Promise<T>;
  /** The failure to answer when no node is eligible, naming each node's state. */
  noneEligible(): NodeUnavailableError;
}
