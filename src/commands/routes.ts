import { Codec } from "../codec/codec.js";
import type { LegacyRouteSpec } from "../tables/legacyRouteSpec.js";
import { compileTables } from "../tables/compileTables.js";
import { useNames } from "../names/activeNames.js";
import { DEFAULT_NAMES } from "../names/namesTable.js";

/** Prints the compiled route tables: verb, path, proto method; legacy routes marked [legacy] with what they do. */
export function printRoutes(profile = DEFAULT_NAMES): void {
  useNames(profile);
  const { gateway, legacy } = compileTables(new Codec());
  const width = Math.max(...gateway.map((r) => r.path.length), ...legacy.routes.map((r) => r.path.length));
  for (const route of gateway) console.log(`${route.verb.toUpperCase().padEnd(4)} ${route.path.padEnd(width)}  ${route.methodPath.slice(1)}`);
  for (const route of legacy.routes) console.log(`${route.verb.toUpperCase().padEnd(4)} ${route.path.padEnd(width)}  [legacy] ${legacyTarget(route)}`);
  console.log(`${gateway.length} gateway routes, ${legacy.routes.length} legacy routes`);
}

function legacyTarget(route: LegacyRouteSpec): string {
  const handler = route.handlers.at(-1)!.handler;
  switch (handler.kind) {
    case "query":
      return route.handlers
        .flatMap((h) => (h.handler.kind === "query" ? h.handler.calls : []))
        .map((c) => (c.kind === "method" ? c.methodPath.slice(1) : `tx search for ${c.msgType.fullName.slice(1)}`))
        .join(", ");
    case "generate":
      return `generate ${handler.msgs.map((m) => m.aminoType).join(", ")}`;
    case "answer":
      return `answers ${handler.status}`;
    default:
      return handler.kind;
  }
}
