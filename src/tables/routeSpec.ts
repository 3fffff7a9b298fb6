import type protobuf from "protobufjs";
import type { EntrySource } from "./loadYamlTable.js";

export type Verb = "get" | "post";

export type PathSegment = { literal: string } | { variable: string; match?: RegExp; reject?: RegExp };

/** A path variable and the request field (possibly nested) it fills. */
export interface PathBinding {
  variable: string;
  fieldPath: protobuf.Field[];
}

/** One compiled route of the gateway family. */
export interface RouteSpec {
  verb: Verb;
  /** The path as the table writes it: /core/bank/v1beta1/balances/{address}. */
  path: string;
  segments: PathSegment[];
  /** "/core.bank.v1beta1.Query/AllBalances": the ABCI query path, also the key of service implementations. */
  methodPath: string;
  method: protobuf.Method;
  requestType: protobuf.Type;
  responseType: protobuf.Type;
  pathBindings: PathBinding[];
  body: boolean;
  tag: string;
  why?: string;
  /** The SDK version that added the route, for routes newer than v0.41 (api.newer-routes). */
  since?: string;
  /** What the answer is derived from, for a route the chain's own v0.41 node does not serve. */
  derived?: string;
  source: EntrySource;
}
