import type { PathSegment, RouteSpec } from "../tables/routeSpec.js";
import { segmentAccepts } from "../tables/routeOverlap.js";
import { koaPath } from "../gateway/gatewayRouter.js";

/** A gateway GET route a request path runs, with its variables. */
export interface DirectMatch {
  route: RouteSpec;
  /** The route's template as the routers name it (@koa/router's _matchedRoute): the meter's label. */
  template: string;
  params: Record<string, string>;
  querystring: string;
}

/**
 * Anything but the plain paths this matcher decides alike with the routers: printable ASCII only (no
 * percent escapes to decode, no case folding beyond ASCII). Linear in the path.
 */
const NOT_PLAIN = /[^\x21-\x7e]|[%#]/;

/**
 * The gateway GET route that the Koa routers would run for a request path,
 * decided without them (directAnswers.ts) for plain paths only: the routers'
 * rules in the same order. A path with the shape of any route of `leftToKoa`
 * is left to the Koa layers (the legacy family's routers come first there; a
 * disabled route is refused by its own layer); then the
 * gateway routes of the table's order: literals compared without case, each
 * variable one non-empty segment its patterns accept (a route whose patterns
 * refuse a value passes the request on, as in gatewayRouter.ts). Paths with
 * an empty segment or a trailing slash, percent escapes or other than
 * printable ASCII are left to the routers (undefined), as is any path no
 * route takes. Routes are grouped by segment count and first segment, so a
 * request compares a handful of routes.
 */
export class DirectRoutes {
  private readonly gateway = new Map<string, Array<{ route: RouteSpec; template: string }>>();
  private readonly left = new Map<string, PathSegment[][]>();
  private readonly firstLiterals = new Set<string>();

  constructor(gatewayRoutes: readonly RouteSpec[], leftToKoa: ReadonlyArray<{ segments: PathSegment[] }>) {
    const all = [...gatewayRoutes.map((r) => r.segments), ...leftToKoa.map((r) => r.segments)];
    for (const segments of all) {
      const first = segments[0];
      if (first && "literal" in first) this.firstLiterals.add(first.literal.toLowerCase());
    }
    for (const route of gatewayRoutes) {
      if (route.verb !== "get") continue;
      for (const key of this.keysOf(route.segments)) {
        const group = this.gateway.get(key) ?? [];
        group.push({ route, template: koaPath(route) });
        this.gateway.set(key, group);
      }
    }
    for (const { segments } of leftToKoa) {
      for (const key of this.keysOf(segments)) this.left.set(key, [...(this.left.get(key) ?? []), segments]);
    }
  }

  match(url: string): DirectMatch | undefined {
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    if (path.length < 2 || path.charCodeAt(0) !== 0x2f || path.endsWith("/") || NOT_PLAIN.test(path) || url.includes("#")) return undefined;
    const segments = path.slice(1).split("/");
    if (segments.includes("")) return undefined;
    const key = this.keyOf(segments);
    for (const left of this.left.get(key) ?? []) if (shapeMatches(left, segments)) return undefined;
    for (const { route, template } of this.gateway.get(key) ?? []) {
      if (!shapeMatches(route.segments, segments) || !variablesAccepted(route.segments, segments)) continue;
      const params: Record<string, string> = {};
      route.segments.forEach((s, i) => {
        if ("variable" in s) params[s.variable] = segments[i]!;
      });
      return { route, template, params, querystring: q < 0 ? "" : url.slice(q + 1) };
    }
    return undefined;
  }

  /** A request's group: its segment count and first segment (one that starts no route is "*"). */
  private keyOf(segments: readonly string[]): string {
    const first = segments[0]!.toLowerCase();
    return `${segments.length}/${this.firstLiterals.has(first) ? first : "*"}`;
  }

  /** The groups a route belongs to: its own, or every group of its length when its first segment is a variable. */
  private keysOf(segments: readonly PathSegment[]): string[] {
    const first = segments[0];
    if (!first) return [];
    if ("literal" in first) return [`${segments.length}/${first.literal.toLowerCase()}`];
    return [...this.firstLiterals, "*"].map((literal) => `${segments.length}/${literal}`);
  }
}

/** The same segment count, and each literal the same without case (a variable takes any non-empty segment). */
function shapeMatches(route: readonly PathSegment[], segments: readonly string[]): boolean {
  if (route.length !== segments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const want = route[i]!;
    if ("literal" in want && want.literal.toLowerCase() !== segments[i]!.toLowerCase()) return false;
  }
  return true;
}

function variablesAccepted(route: readonly PathSegment[], segments: readonly string[]): boolean {
  return route.every((s, i) => "literal" in s || segmentAccepts(s, segments[i]!));
}
