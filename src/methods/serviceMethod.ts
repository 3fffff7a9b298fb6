import type { ChainClient } from "../client/chainClient.js";
import type { Codec } from "../codec/codec.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";

export interface ServiceContext {
  client: ChainClient;
  codec: Codec;
  /** The requested query height (0 = latest). */
  height: number;
  /** The chain's account address prefix (app.toml bech32-prefix), for consensus addresses. */
  bech32Prefix: string;
}

/**
 * A method that is not an ABCI query of the node's modules (the tx and
 * consensus services): implemented in methods/ on top of ChainClient, so it
 * works the same in-process and against a remote node.
 */
export type ServiceMethod = (request: ProtoMessage, context: ServiceContext) => Promise<{ response: ProtoMessage; height?: number }>;

/** Service implementations by method path ("/core.tx.v1beta1.Service/GetTx"). */
export type ServiceRegistry = ReadonlyMap<string, ServiceMethod>;
