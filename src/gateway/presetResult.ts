import type { IncomingMessage } from "node:http";
import type { RouteSpec } from "../tables/routeSpec.js";
import type { MethodResult } from "./callMethod.js";
import type { UpstreamRequestScope } from "../client/upstreams/requestScope.js";

/**
 * A route's outcome computed before the Koa layers (directAnswers.ts), for the route to answer with;
 * behind several nodes, with the node that answered (the request's scope is told it, as a call tells it).
 */
type Preset = ({ result: MethodResult } | { error: unknown }) & { route: RouteSpec; answeredBy?: string };

const PRESET = Symbol("preset route outcome");
type Carrying = IncomingMessage & { [PRESET]?: Preset };

/**
 * Hands a route's outcome to the Koa layers: the request goes through them as any other (CORS,
 * errors, caching, compression, the meter), and the route answers with this outcome instead of
 * calling its method again (a query is executed once, its counters counted once).
 */
export function presetOutcome(req: IncomingMessage, preset: Preset): void {
  (req as Carrying)[PRESET] = preset;
}

/** The result preset for `route` (taken once), or undefined; a preset error is thrown. `scope`: the request's, told who answered. */
export function presetResult(req: IncomingMessage, route: RouteSpec, scope: UpstreamRequestScope | undefined): MethodResult | undefined {
  const preset = (req as Carrying)[PRESET];
  if (!preset || preset.route !== route) return undefined;
  (req as Carrying)[PRESET] = undefined;
  if (scope && preset.answeredBy !== undefined) scope.answeredBy = preset.answeredBy;
  if ("error" in preset) throw preset.error;
  return preset.result;
}
