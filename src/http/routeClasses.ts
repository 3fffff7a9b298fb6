import type { TableRoute } from "./routeMatcher.js";

/**
 * Classes of routes whose answers cost far more than a balance: each scans a
 * list whose length the chain, not the client, sets. An operator weighs them
 * (api.route-weights) by class rather than listing every template of both families.
 */
const ROUTE_CLASSES = {
  /** Holders of a denom: every account holding it. */
  holders: ["Query/DenomOwners", "Query/TopHolders"],
  /** Transaction searches: an event query over any range of blocks. */
  "tx-search": ["Service/GetTxsEvent"],
  /** A validator's delegations, unbonding delegations, redelegations: as many as its delegators. */
  "validator-lists": ["Query/ValidatorDelegations", "Query/ValidatorUnbondingDelegations", "Query/Redelegations"],
  /** Every account of the chain. */
  "account-lists": ["Query/Accounts"],
} as const;

export type RouteClass = keyof typeof ROUTE_CLASSES;

export function isRouteClass(name: string): name is RouteClass {
  return Object.hasOwn(ROUTE_CLASSES, name);
}

/** Whether a route is of a class: it calls one of the class's methods (a legacy transaction search is a tx-search). */
export function routeIsOf(route: TableRoute, name: RouteClass): boolean {
  if (name === "tx-search" && route.searchesTxs) return true;
  const suffixes: readonly string[] = ROUTE_CLASSES[name];
  return route.methods.some((method) => suffixes.some((suffix) => method.endsWith(`.${suffix}`)));
}
