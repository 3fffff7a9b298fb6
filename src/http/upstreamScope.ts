import type { Context, Middleware } from "koa";
import type { ConnectionHeight, UpstreamRequestScope } from "../client/upstreams/requestScope.js";
import { ScopedClient } from "../client/upstreams/scopedClient.js";
import type { RestDeps } from "./restDeps.js";
import { answeredHeightText, requestedHeight } from "./height.js";
import type { HeightFloorState } from "./sharedExecutions.js";

/** Each open connection's height floor: gone with its socket. */
const floors = new WeakMap<object, ConnectionHeight>();

/**
 * Gives each request of a multi-node gateway its scope (requestScope.ts), which its routes' calls carry (requestDeps):
 * the height its connection was already answered at, so that no later answer
 * on it goes back (the client chooses nodes by it), and, on the way out, what
 * the gateway did: X-Chain-Rest-Upstream (the node that answered) and
 * X-Chain-Rest-Broadcast (a broadcast's path through the nodes).
 */
export function upstreamScope(): Middleware {
  return (ctx, next) => {
    const scope = requestScopeOn(ctx.req.socket);
    (ctx.state as HeightFloorState).heightFloor = scope.connection.floor; // shared executions share only within one floor
    (ctx.state as ScopeState).upstreamScope = scope;
    return next().then(() => {
      if (scope.answeredBy) ctx.res.setHeader(UPSTREAM_HEADER, scope.answeredBy);
      if (scope.broadcastNote) ctx.res.setHeader("X-Chain-Rest-Broadcast", scope.broadcastNote);
      // a reused answer (answer cache) was answered at a height too: it counts for the floor
      if (!pinned(ctx.headers)) raiseFloor(scope, Number(answeredHeightText(ctx.res)));
    });
  };
}

/** Where a request's scope is kept for the routes (ctx.state). */
export interface ScopeState {
  upstreamScope?: UpstreamRequestScope;
}

/** The deps a request's route runs with: behind several nodes, a client whose calls carry the request's scope. */
export function requestDeps<D extends RestDeps>(ctx: Context, deps: D): D {
  const scope = (ctx.state as ScopeState).upstreamScope;
  return scope ? scopedDeps(deps, scope) : deps;
}

export function scopedDeps<D extends RestDeps>(deps: D, scope: UpstreamRequestScope): D {
  return { ...deps, client: new ScopedClient(deps.client, scope) };
}

/** The node that answered a request's last call, named on its answer. */
export const UPSTREAM_HEADER = "X-Chain-Rest-Upstream";

/** A new request's scope on a client connection (its socket): the floor its earlier answers set. */
export function requestScopeOn(socket: object): UpstreamRequestScope {
  let connection = floors.get(socket);
  if (!connection) floors.set(socket, (connection = { floor: 0 }));
  return { connection };
}

/** A latest-height answer at `answered` (0 or NaN: none): no later answer on the connection may be below it. */
export function raiseFloor(scope: UpstreamRequestScope, answered: number): void {
  if (answered > 0) scope.connection.floor = Math.max(scope.connection.floor, answered);
}

function pinned(headers: Record<string, string | string[] | undefined>): boolean {
  try {
    return requestedHeight(headers) > 0;
  } catch {
    return false;
  }
}
