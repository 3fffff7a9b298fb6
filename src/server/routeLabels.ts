import { koaPath as gatewayKoaPath } from "../gateway/gatewayRouter.js";
import { koaPath as legacyKoaPath } from "../legacy/legacyRouter.js";
import { ownPathLabels, type RouteLabel } from "../http/requestMeter.js";
import type { RouteSpec } from "../tables/routeSpec.js";
import type { LegacyRouteSpec } from "../tables/legacyRouteSpec.js";

/**
 * The label of every path @koa/router can report as matched (its `_matchedRoute`,
 * the route's Koa path), and of the paths served beside the tables: the table's
 * template (`/core/bank/v1beta1/balances/{address}`) and the family. Built once;
 * a legacy route wins a Koa path both families share, as it is matched first.
 */
export function routeLabels(gateway: readonly RouteSpec[], legacy: readonly LegacyRouteSpec[]): Map<string, RouteLabel> {
  const labels = new Map<string, RouteLabel>(ownPathLabels());
  for (const route of legacy) if (!labels.has(legacyKoaPath(route))) labels.set(legacyKoaPath(route), { family: "legacy", template: route.path });
  for (const route of gateway) if (!labels.has(gatewayKoaPath(route))) labels.set(gatewayKoaPath(route), { family: "gateway", template: route.path });
  return labels;
}
