import type { RouteSpec } from "../routeSpec.js";

/** A google.api.HttpRule as the service configuration and the descriptor set write it (proto field names). */
export interface HttpRule {
  selector?: string;
  get?: string;
  post?: string;
  body?: string;
  additional_bindings?: HttpRule[];
}

/** "/core.bank.v1beta1.Query/AllBalances" → "core.bank.v1beta1.Query.AllBalances", a method's full name. */
function methodFullName(methodPath: string): string {
  return methodPath.slice(1).replace("/", ".");
}

/**
 * The path template of a route. The tables' variables are whole segments
 * ({address}), which is the template syntax's {address} (= {address=*}) as it
 * stands; a variable over several segments would be {name=**}, and no route has one.
 */
function pathTemplate(route: RouteSpec): string {
  return route.segments.map((s) => ("literal" in s ? `/${s.literal}` : `/{${s.variable}}`)).join("");
}

/** One binding: the verb with its template, and the body when the route takes one. */
function routeBinding(route: RouteSpec): HttpRule {
  return { [route.verb]: pathTemplate(route), ...(route.body ? { body: "*" } : {}) };
}

/** A path with every variable as "*": two routes of one verb and shape match the same paths in a gateway. */
function templateShape(route: RouteSpec): string {
  return `${route.verb} ${route.segments.map((s) => ("literal" in s ? s.literal : "*")).join("/")}`;
}

/**
 * The earlier route of the same verb and template shape, for a route that
 * only its match/reject patterns tell from it. A gateway's path matcher takes
 * one method per template (Envoy's transcoder refuses its whole configuration
 * on a second), so such a route is left out of the exports.
 */
export function earlierTwin(route: RouteSpec, routes: RouteSpec[]): RouteSpec | undefined {
  const shape = templateShape(route);
  return routes.slice(0, routes.indexOf(route)).find((other) => templateShape(other) === shape);
}

/**
 * One rule per routed method, in table order: the method's first route is the
 * rule, its other routes are the rule's additional_bindings. Routes with an
 * earlier twin are left out (unsayable.ts lists them).
 */
export function httpRules(routes: RouteSpec[]): Map<string, HttpRule> {
  const rules = new Map<string, HttpRule>();
  for (const route of routes) {
    if (earlierTwin(route, routes)) continue;
    const selector = methodFullName(route.methodPath);
    const rule = rules.get(selector);
    if (!rule) rules.set(selector, { selector, ...routeBinding(route) });
    else (rule.additional_bindings ??= []).push(routeBinding(route));
  }
  return rules;
}
