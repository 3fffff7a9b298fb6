// Generated from src/tables/schemas/legacy-routes.schema.json by scripts/writeTableTypes.ts (npm run table-types): do not edit.

/**
 * URL path; {name} is a path variable (letters, digits, - and _).
 */
export type Path = string;
/**
 * Full protobuf method: <package>.<Service>/<Method>.
 */
export type Method = string;
export type FieldPath = string;
/**
 * One entry per route of the legacy family (amino JSON). An entry has one verb key with its path and one way of answering: a proto method (method + request), several calls (calls), building an unsigned transaction (generate), a transaction action (action), or a fixed error (answer). Values in request/result/msg templates are literals or references: $path.<var>, $query.<name>, $body.<field>, $base_req.<field>, $calls.<name>.<field>, $item[.<field>], optionally piped: `$path.validatorAddr | account`.
 */
export type LegacyRoutesTable = {
  get?: Path;
  post?: Path;
  put?: Path;
  /**
   * One line for the OpenAPI file; defaults to the method's name.
   */
  summary?: string;
  /**
   * Why the entry exists when the specification does not list it.
   */
  why?: string;
  /**
   * OpenAPI tag; defaults to legacy.<first path segment>.
   */
  tag?: string;
  method?: Method;
  request?: Request;
  /**
   * Named calls whose answers the result template combines.
   */
  calls?: {
    [k: string]: Call;
  };
  /**
   * Builds the unsigned StdTx of these Msgs from base_req and the route's fields (or simulates it: {gas_estimate}).
   */
  generate?: {
    /**
     * @minItems 1
     */
    msgs: [Msg, ...Msg[]];
    /**
     * @minItems 1
     */
    checks?: [Check, ...Check[]];
  };
  /**
   * A transaction route: broadcast a signed StdTx, encode a StdTx to protobuf bytes, decode tx bytes to a StdTx, search transactions by events (search-txs: by the query parameters; search-txs-each: the searches of `each`).
   */
  action?: "broadcast-std-tx" | "encode-std-tx" | "decode-tx" | "search-txs" | "search-txs-each";
  /**
   * search-txs-each: several transaction searches, answered as a list of search results (the first page of each); a query parameter picks one by name.
   */
  each?: {
    /**
     * name -> event conditions, joined with AND; {path.x} is filled in. Run in this order.
     */
    searches: {
      /**
       * @minItems 1
       */
      [k: string]: [string, ...string[]];
    };
    /**
     * the query parameter whose words (separated by spaces) name the search to run, the first of `searches` named; absent: all of them
     */
    select: string;
    /**
     * the status when the parameter names no search (204: no body)
     */
    otherwise: number;
    /**
     * transactions on the page each search answers (default 30)
     */
    limit?: number;
  };
  /**
   * broadcast-std-tx: the request's mode -> broadcast mode of the tx service.
   */
  modes?: {
    [k: string]: "BROADCAST_MODE_BLOCK" | "BROADCAST_MODE_SYNC" | "BROADCAST_MODE_ASYNC";
  };
  /**
   * search-txs: query parameter -> event condition; {value} is the parameter's value, {key} its name; "*" applies to every other parameter.
   */
  conditions?: {
    [k: string]: string;
  };
  /**
   * method routes: when the state answers nothing (an empty list, or an error like on_error), answer the Msgs a transaction search finds instead, paged as the route pages.
   */
  fallback?: {
    /**
     * a regular expression: a failed state query whose message matches falls back too
     */
    on_error?: string;
    search: Search;
  };
  answer?: ErrorAnswer;
  /**
   * Path variable -> how its value is checked.
   */
  path?: {
    [k: string]: Param;
  };
  /**
   * Query parameter -> how its value is checked (parameters a template references need no entry unless checked).
   */
  query?: {
    [k: string]: Param;
  };
  paging?: Paging;
  /**
   * Whether ?height= selects the query height (default: true for routes that call methods).
   */
  height?: boolean;
  /**
   * What the route answers: a field path of the method's response ("validators", "delegation_response"), or an object template over calls.
   */
  result?:
    | FieldPath
    | {
        [k: string]: unknown;
      };
  /**
   * height: {"height": "...", "result": ...}; bare: the result alone.
   */
  envelope: "height" | "bare";
  /**
   * false: a result of a registered type is not wrapped as {type, value} (a distinct Go type in the real server).
   */
  amino_wrap?: boolean;
  /**
   * false for the routes the real server does not mark (client RPC routes, extension and chain-specific modules).
   */
  deprecation_headers?: boolean;
  /**
   * How errors of this route are answered, first match wins.
   *
   * @minItems 1
   */
  errors?: [ErrorRule, ...ErrorRule[]];
  /**
   * Alternatives chosen by the request (a query parameter given, a path variable's form); the first that applies replaces the entry's method, request, query, result and paging.
   *
   * @minItems 1
   */
  variants?: [
    {
      when: When;
      method: Method;
      request?: Request;
      query?: {
        [k: string]: Param;
      };
      result?: FieldPath;
      paging?: Paging;
    },
    ...{
      when: When;
      method: Method;
      request?: Request;
      query?: {
        [k: string]: Param;
      };
      result?: FieldPath;
      paging?: Paging;
    }[]
  ];
}[];

/**
 * Request field (dotted) -> template.
 */
export interface Request {
  [k: string]: unknown;
}
export interface Call {
  method?: Method;
  request?: Request;
  search?: Search;
}
/**
 * A transaction search: the Msgs of type msg in the txs matching every event condition, oldest first (the first one, unless all).
 */
export interface Search {
  /**
   * event conditions, joined with AND; {path.x} and {query.x} are filled in
   *
   * @minItems 1
   */
  events: [string, ...string[]];
  /**
   * proto full name of the Msg to find
   */
  msg: string;
  /**
   * transactions read per page of the search (default 30)
   */
  limit?: number;
  /**
   * Msg field -> the value it must have ({path.x} filled in)
   */
  match?: {
    [k: string]: string;
  };
  /**
   * proto full name of the type to read each Msg's bytes as (the same field numbers)
   */
  as?: string;
  /**
   * every matching Msg of every page, not only the first
   */
  all?: boolean;
}
/**
 * A Msg in amino JSON: {type: amino name, value: template}; for_each repeats it over the items a method answers.
 */
export interface Msg {
  type: string;
  value: {
    [k: string]: unknown;
  };
  for_each?: {
    method: Method;
    request?: Request;
    items: FieldPath;
  };
}
export interface Check {
  /**
   * two templates that must name the same address bytes
   *
   * @minItems 2
   * @maxItems 2
   */
  same_address?: [string, string];
  /**
   * [template, regular expression]
   *
   * @minItems 2
   * @maxItems 2
   */
  matches?: [string, string];
  status: number;
  error: string;
}
/**
 * A fixed error answer (a path the real server refuses).
 */
export interface ErrorAnswer {
  status: number;
  error: string;
}
export interface Param {
  description?: string;
  required?: boolean;
  default?: string;
  /**
   * upper-case the value before use
   */
  upper?: boolean;
  /**
   * hex: the value is hex (bytes); uint64/int64: a decimal integer; account/validator: a bech32 address of the chain under the account or operator prefix
   */
  format?: "hex" | "uint64" | "int64" | "account" | "validator";
  /**
   * 400 message when the value does not fit; {value} is the value
   */
  error?: string;
  refuse?: {
    /**
     * regular expression of refused values
     */
    match: string;
    /**
     * 400 message; {value} is the value, {VALUE} upper-cased
     */
    error: string;
  };
  /**
   * path variables: values this route does not take (another route does)
   */
  reject?: string;
}
/**
 * Legacy ?page=&limit= paging: into the request's pagination (offset, limit), or applied to the result list (of: result).
 */
export interface Paging {
  default_limit?: number;
  of?: "result";
}
export interface ErrorRule {
  /**
   * not-found: the method answered NotFound; empty: the result is empty; no-amino-encoding: a Msg has no amino name; bad-tx: the StdTx or tx bytes do not decode; bad-request: a parameter or body does not fit; node: any other failure of the node
   */
  when?: "not-found" | "empty" | "no-amino-encoding" | "bad-tx" | "bad-request" | "node";
  /**
   * regular expression on the error message
   */
  match?: string;
  status?: number;
  /**
   * the message answered ({message} is the original one)
   */
  error?: string;
  /**
   * answer 200 with this result instead of an error
   */
  result?: {
    [k: string]: unknown;
  };
}
export interface When {
  /**
   * this query parameter is given
   */
  query?: string;
  /**
   * path variable -> regular expression its value matches
   */
  path?: {
    [k: string]: string;
  };
}
