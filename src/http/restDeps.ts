import type { ChainClient } from "../client/chainClient.js";
import type { Codec } from "../codec/codec.js";
import type { ServiceRegistry } from "../methods/serviceMethod.js";
import type { PageCaps } from "./pageCaps.js";

/** What the route families (gateway and legacy) and the services need to answer: the chain, the codec, the limits. */
export interface RestDeps {
  client: ChainClient;
  codec: Codec;
  services: ServiceRegistry;
  maxBodyBytes: number;
  /** The chain's account address prefix, for addresses the services derive (consensus addresses). */
  bech32Prefix: string;
  /** api.max-page-limit and api.max-page-offset (absent: no caps). */
  pageCaps?: PageCaps;
  /** Queries run for requests (proto methods called), for the metrics: shared executions run once. */
  executions?: { count: number };
}
