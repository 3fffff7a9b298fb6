import type http from "node:http";
import { ConfigError } from "../config/tomlConfig.js";
import { isRouteClass, routeIsOf } from "./routeClasses.js";
import { pathMatches, pathSegments, type TableRoute } from "./routeMatcher.js";

interface Weighted {
  route: TableRoute;
  weight: number;
}

/** How many rate-limit tokens a request takes. */
export type RequestWeight = (request: http.IncomingMessage) => number;

/**
 * api.route-weights: [class or template, weight] pairs. A template's weight
 * wins over its class's; a name that is neither a class nor a template of
 * either table stops the start. Undefined when every route weighs 1.
 */
export function routeWeights(pairs: readonly string[][], routes: readonly TableRoute[]): RequestWeight | undefined {
  const byRoute = new Map<TableRoute, { weight: number; fromTemplate: boolean }>();
  for (const [name, text] of pairs) {
    const weight = Number(text);
    const template = routes.filter((route) => route.path === name);
    if (template.length === 0 && !isRouteClass(name!)) {
      throw new ConfigError(`api.route-weights: "${name}" is neither a route class (holders, tx-search, validator-lists, account-lists) nor a route template`);
    }
    const ofClass = template.length > 0 ? template : routes.filter((route) => routeIsOf(route, name as Parameters<typeof routeIsOf>[1]));
    for (const route of ofClass) {
      const known = byRoute.get(route);
      if (known?.fromTemplate && template.length === 0) continue;
      byRoute.set(route, { weight, fromTemplate: template.length > 0 });
    }
  }
  const weighted: Weighted[] = [...byRoute].filter(([, w]) => w.weight !== 1).map(([route, w]) => ({ route, weight: w.weight }));
  if (weighted.length === 0) return undefined;
  // A request is compared with the weighted routes only (a few dozen at most), segment by segment.
  return (request) => {
    const method = (request.method ?? "GET").toLowerCase();
    const segments = pathSegments(request.url ?? "/");
    for (const { route, weight } of weighted) if (route.verb === method && pathMatches(route, segments)) return weight;
    return 1;
  };
}
