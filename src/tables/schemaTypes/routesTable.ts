// Generated from src/tables/schemas/routes.schema.json by scripts/writeTableTypes.ts (npm run table-types): do not edit.

/**
 * URL path; {name} is a path variable that fills the request field `name`.
 */
export type Path = string;
/**
 * One entry per REST route of the gateway family: an HTTP verb with its path, and the protobuf method it calls. Path variables {name} bind to request fields of the same name; query parameters bind to request fields by dotted name (pagination.limit).
 */
export type RoutesTable = {
  get?: Path;
  post?: Path;
  /**
   * Full protobuf method: <package>.<Service>/<Method>, e.g. core.bank.v1beta1.Query/AllBalances.
   */
  method: string;
  /**
   * "*": the JSON request body is the whole request message (POST routes).
   */
  body?: "*";
  match?: Patterns;
  reject?: Patterns1;
  /**
   * Module tag for the OpenAPI file; defaults to the module of the method's package.
   */
  tag?: string;
  /**
   * Why the entry exists when the specification does not list it.
   */
  why?: string;
  /**
   * What the answer is derived from when the chain's v0.41 node has no such query (e.g. hubmod.mint); api.newer-routes = false leaves such entries out.
   */
  derived?: string;
  /**
   * The SDK version that added the route (newer than v0.41), e.g. v0.46; api.newer-routes = false leaves such entries out.
   */
  since?: string;
}[];

/**
 * Path variable -> regular expression the segment must match for this route to apply.
 */
export interface Patterns {
  [k: string]: string;
}
/**
 * Path variable -> regular expression the segment must NOT match for this route to apply.
 */
export interface Patterns1 {
  [k: string]: string;
}
