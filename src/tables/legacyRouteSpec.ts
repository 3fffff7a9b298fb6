import type protobuf from "protobufjs";
import type { EntrySource } from "./loadYamlTable.js";
import type { PathSegment } from "./routeSpec.js";
import type { Template } from "./legacyTemplates.js";

export type LegacyVerb = "get" | "post" | "put";

/** A path variable or query parameter and how its value is checked. */
export interface ParamSpec {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  default?: string;
  upper: boolean;
  /** account / validator: a bech32 address of the chain under that prefix (AccAddressFromBech32, ValAddressFromBech32). */
  format?: "hex" | "uint64" | "int64" | "account" | "validator";
  /** 400 message when the value does not fit its field; {value} is the value. */
  error?: string;
  refuse?: { match: RegExp; error: string };
}

/** A request field (possibly nested) and the template of its value. */
export interface RequestBinding {
  fieldPath: protobuf.Field[];
  template: Template;
}

export interface MethodCall {
  kind: "method";
  name: string;
  /** "/core.bank.v1beta1.Query/AllBalances" */
  methodPath: string;
  requestType: protobuf.Type;
  responseType: protobuf.Type;
  request: RequestBinding[];
}

/** The Msgs of a type in the transactions that match every event condition (oldest first). */
export interface SearchCall {
  kind: "search";
  name: string;
  /** Conditions with {path.x} placeholders, joined with AND. */
  events: string[];
  msgType: protobuf.Type;
  /** Transactions read per page of the search. */
  limit: number;
  /** Only Msgs whose fields have these values ({path.x} placeholders). */
  match: Map<string, string>;
  /** Read each Msg's bytes as this type (a Msg and the state object it records share their fields). */
  as?: protobuf.Type;
  /** Every matching Msg of every page, or only the first. */
  all: boolean;
}

/** Answers rebuilt from transactions when the state has none (the real routes do this for finished gov proposals). */
interface QueryFallback {
  search: SearchCall;
  /** Also fall back when the state query fails with a message like this. */
  onError?: RegExp;
}

export type Call = MethodCall | SearchCall;

export interface Paging {
  defaultLimit: number;
  /** request: into the request's pagination offset/limit; result: applied to the answered list. */
  of: "request" | "result";
}

export type ResultSpec =
  /** the whole answer of the single call */
  | { kind: "whole"; call: MethodCall }
  /** a field of the single call's answer */
  | { kind: "field"; call: MethodCall; path: protobuf.Field[] }
  /** an object built from calls and parameters */
  | { kind: "template"; template: Template };

export interface QueryHandler {
  kind: "query";
  calls: Call[];
  result: ResultSpec;
  paging?: Paging;
  /** Used when the result is empty (or the query fails as onError says). */
  fallback?: QueryFallback;
}

export interface When {
  query?: string;
  path?: Map<string, RegExp>;
}

export interface MsgSpec {
  aminoType: string;
  protoType: protobuf.Type;
  value: Template;
  forEach?: { call: MethodCall; items: protobuf.Field[] };
}

export type CheckSpec =
  | { kind: "same_address"; a: Template; b: Template; status: number; error: string }
  | { kind: "matches"; value: Template; pattern: RegExp; status: number; error: string };

export interface GenerateHandler {
  kind: "generate";
  msgs: MsgSpec[];
  checks: CheckSpec[];
}

export type ActionHandler =
  | { kind: "broadcast-std-tx"; modes: Map<string, string> }
  | { kind: "encode-std-tx" }
  | { kind: "decode-tx" }
  | { kind: "search-txs"; conditions: Map<string, string>; paging: Paging }
  | SearchTxsEach;

/** Several transaction searches answered as a list of search results, the first page of each; a query parameter may pick one. */
interface SearchTxsEach {
  kind: "search-txs-each";
  /** Event conditions of each search ({path.x} filled in), joined with AND; in table order. */
  searches: Array<{ name: string; events: string[] }>;
  /** The query parameter whose words name the search to run (the first named wins); absent: every search. */
  select: string;
  /** The status when the parameter names no search. */
  otherwise: number;
  /** Transactions on the one page each search answers. */
  limit: number;
}

export type Handler = QueryHandler | GenerateHandler | ActionHandler | { kind: "answer"; status: number; error: string };

export type ErrorKind = "not-found" | "empty" | "no-amino-encoding" | "bad-tx" | "bad-request" | "node";

export interface ErrorRule {
  when?: ErrorKind;
  match?: RegExp;
  status?: number;
  /** The message answered; {message} is the original one. */
  error?: string;
  /** Answer 200 with this result instead. */
  result?: { value: unknown };
}

/** One compiled route of the legacy family. */
export interface LegacyRouteSpec {
  verb: LegacyVerb;
  /** As the table writes it: /staking/delegators/{delegatorAddr}/delegations */
  path: string;
  segments: PathSegment[];
  /** Path variables, in order. */
  variables: string[];
  params: { path: Map<string, ParamSpec>; query: Map<string, ParamSpec> };
  /** The alternatives in order; the last has no `when`. */
  handlers: Array<{ when?: When; handler: Handler; query: Map<string, ParamSpec> }>;
  readsHeight: boolean;
  envelope: "height" | "bare";
  aminoWrap: boolean;
  deprecationHeaders: boolean;
  errors: ErrorRule[];
  tag: string;
  summary: string;
  why?: string;
  source: EntrySource;
}
