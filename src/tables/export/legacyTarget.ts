import type { LegacyRouteSpec } from "../legacyRouteSpec.js";

/** What a legacy route does, in a few words: the methods it queries, the messages it generates, or its fixed answer. */
export function legacyTarget(route: LegacyRouteSpec): string {
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
