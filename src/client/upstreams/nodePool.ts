import type { NodeUnavailableError } from "../chainClient.js";
import type { UpstreamNode } from "./upstreamNode.js";
import type { UpstreamRequestScope } from "./requestScope.js";

/** The nodes behind a multi-node gateway, as broadcasts and event subscriptions choose among them. */
export interface NodePool {
  readonly nodes: readonly UpstreamNode[];
  /** The nodes that may answer at the latest height now. */
  eligibleNodes(): UpstreamNode[];
  /** Of the expected chain and not cooling down. */
  usable(node: UpstreamNode): boolean;
  /** Runs a call on a node, counting it in flight and its failures; `scope`: the request's, told who answered. */
  run<T>(node: UpstreamNode, call: () => Promise<T>, scope?: UpstreamRequestScope): Promise<T>;
  /** The failure to answer when no node is eligible, naming each node's state. */
  noneEligible(): NodeUnavailableError;
}
