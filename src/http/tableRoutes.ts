import type { LegacyRouteSpec } from "../tables/legacyRouteSpec.js";
import type { RouteSpec } from "../tables/routeSpec.js";
import type { TableRoute } from "./routeMatcher.js";

/** Both tables' routes as operator settings name them (legacy first: it wins a path both families have, as in routing). */
export function tableRoutes(gateway: readonly RouteSpec[], legacy: readonly LegacyRouteSpec[]): TableRoute[] {
  const routes: TableRoute[] = [];
  for (const route of legacy) {
    const methods: string[] = [];
    let searchesTxs = false;
    for (const { handler } of route.handlers) {
      if (handler.kind === "search-txs" || handler.kind === "search-txs-each") searchesTxs = true;
      if (handler.kind !== "query") continue;
      for (const call of handler.calls) {
        if (call.kind === "method") methods.push(call.methodPath);
        else searchesTxs = true;
      }
    }
    routes.push({ family: "legacy", verb: route.verb, path: route.path, segments: route.segments, methods, searchesTxs });
  }
  for (const route of gateway) routes.push({ family: "gateway", verb: route.verb, path: route.path, segments: route.segments, methods: [route.methodPath] });
  return routes;
}
