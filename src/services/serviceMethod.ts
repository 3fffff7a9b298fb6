import type { ChainClient } from "../client/chainClient.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";

/**
 * A method that is not an ABCI query of the node (the tx and consensus
 * services): implemented in services/ on top of ChainClient, so it works
 * the same in-process and against a remote node.
 */
export type ServiceMethod = (request: ProtoMessage, context: { client: ChainClient; height: number }) => Promise<{ response: ProtoMessage; height?: number }>;

/** Service implementations by method path ("/core.tx.v1beta1.Service/GetTx"). */
export type ServiceRegistry = ReadonlyMap<string, ServiceMethod>;
