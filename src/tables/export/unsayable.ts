import type { LegacyRouteSpec } from "../legacyRouteSpec.js";
import type { RouteSpec } from "../routeSpec.js";
import { HEIGHT_HEADER } from "../../http/height.js";
import { legacyTarget } from "./legacyTarget.js";

/**
 * What the exported forms (google.api.Service rules, google.api.http options)
 * cannot say, one line per route: a path template has no patterns, so a
 * gateway cannot tell apart two routes of one shape that `match` / `reject`
 * tell apart; the height header is read by chain-rest, not by the rule; and
 * the legacy family answers amino JSON that no gRPC method returns.
 */
export function unsayableParts(gateway: RouteSpec[], legacy: LegacyRouteSpec[]): string[] {
  const lines: string[] = [];
  for (const route of gateway) {
    const twins = gateway.filter((other) => other !== route && other.verb === route.verb && shape(other) === shape(route));
    const consequence = twins.length
      ? `a gateway cannot tell it from ${twins.map((t) => t.path).join(", ")} and sends such paths to one of them`
      : "the template takes any segment, and the method answers a value it cannot read";
    for (const segment of route.segments) {
      if ("literal" in segment) continue;
      const where = `${route.verb.toUpperCase()} ${route.path}`;
      if (segment.match) lines.push(`${where}: {${segment.variable}} must match ${tableText(segment.match)}; ${consequence}`);
      if (segment.reject) lines.push(`${where}: {${segment.variable}} must not match ${tableText(segment.reject)}; ${consequence}`);
    }
  }
  lines.push(
    `all ${gateway.length} gateway routes: the ${HEIGHT_HEADER} header (the height to read at) is not part of the rule; ` +
      "a gateway passes it on as gRPC metadata only when it is set up to",
  );
  for (const route of legacy) lines.push(`${route.verb.toUpperCase()} ${route.path}: legacy route (amino JSON), no gRPC method: ${legacyTarget(route)}`);
  return lines;
}

/** The pattern as the table writes it, without the anchors the compiler added (anchoredPattern). */
function tableText(pattern: RegExp): string {
  return pattern.source.replace(/^\^\(\?:([\s\S]*)\)\$$/, "$1");
}

/** A path with every variable as "*": two routes of one shape match the same paths in a gateway. */
function shape(route: RouteSpec): string {
  return route.segments.map((s) => ("literal" in s ? s.literal : "*")).join("/");
}
