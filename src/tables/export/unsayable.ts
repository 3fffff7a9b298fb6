import type { LegacyRouteSpec } from "../legacyRouteSpec.js";
import type { RouteSpec } from "../routeSpec.js";
import { HEIGHT_HEADER } from "../../http/height.js";
import { earlierTwin } from "./httpRules.js";
import { legacyTarget } from "./legacyTarget.js";

/**
 * What the exported forms (google.api.Service rules, google.api.http options)
 * cannot say, one line per route: a path template has no patterns, so of two
 * routes of one shape that `match` / `reject` tell apart only the first is
 * exported; the height header is read by chain-rest, not by the rule; and the
 * legacy family answers amino JSON that no gRPC method returns.
 */
export function unsayableParts(gateway: RouteSpec[], legacy: LegacyRouteSpec[]): string[] {
  const lines: string[] = [];
  for (const route of gateway) {
    const where = `${route.verb.toUpperCase()} ${route.path}`;
    const twin = earlierTwin(route, gateway);
    if (twin) {
      lines.push(
        `${where}: left out of both exports: ${twin.path} has the same template shape, and a gateway takes one method per template (Envoy refuses a second)`,
      );
    }
    const reached = gateway.filter((other) => earlierTwin(other, gateway) === route).map((other) => other.path);
    const consequence = reached.length ? `the template cannot say so, and the paths of ${reached.join(", ")} reach this method` : "the template cannot say so";
    for (const segment of route.segments) {
      if ("literal" in segment) continue;
      if (segment.match) lines.push(`${where}: {${segment.variable}} must match ${tableText(segment.match)}; ${consequence}`);
      if (segment.reject) lines.push(`${where}: {${segment.variable}} must not match ${tableText(segment.reject)}; ${consequence}`);
    }
  }
  lines.push(
    `all ${gateway.filter((r) => !earlierTwin(r, gateway)).length} exported gateway routes: the ${HEIGHT_HEADER} header (the height to read at) is not part of the rule; ` +
      "a gateway passes it on as gRPC metadata only when it is set up to",
  );
  for (const route of legacy) lines.push(`${route.verb.toUpperCase()} ${route.path}: legacy route (amino JSON), no gRPC method: ${legacyTarget(route)}`);
  return lines;
}

/** The pattern as the table writes it, without the anchors the compiler added (anchoredPattern). */
function tableText(pattern: RegExp): string {
  return pattern.source.replace(/^\^\(\?:([\s\S]*)\)\$$/, "$1");
}
