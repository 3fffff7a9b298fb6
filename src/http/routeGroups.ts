import type { Middleware, Next, ParameterizedContext } from "koa";

/** A route's path as the tables give it: literal and variable segments. */
export type PathSegment = { literal: string } | { variable: string };

/** How many leading path segments pick a request's group. */
const DEPTH = 2;
/** Any request segment that is no route's literal at that position. */
const OTHER = "\u0000";

/**
 * Dispatch by path prefix in front of Koa routers. @koa/router tests every
 * route's regular expression in turn, so with the whole table in one router
 * each request would pay for hundreds of tests before its own route ran
 * (the "full table against one route" benchmark). Here the
 * routes are grouped by their first two segments, and a request runs a router
 * built (by `build`, once, on first use) from only the routes that can match
 * its path, in table order: the same routes match as in one router of all of
 * them, so the answers are the same. A group with no route is skipped.
 *
 * The routers match without case and on the raw (still percent-encoded)
 * path, so request segments are compared lower-cased and undecoded; a route
 * whose literal differs from the request's segment cannot match it. Request
 * segments that are no route's literal all share one key (OTHER), so the
 * groups are bounded by the table, not by what clients send.
 */
export function routeGroups<R, S, C>(
  routes: readonly R[],
  segmentsOf: (route: R) => readonly PathSegment[],
  build: (subset: R[]) => Middleware<S, C>,
): Middleware<S, C> {
  const literals: Array<Set<string>> = [];
  for (let i = 0; i < DEPTH; i++) {
    literals.push(new Set(routes.flatMap((route) => literalAt(segmentsOf(route), i) ?? [])));
  }
  const groups = new Map<string, Middleware<S, C> | null>();
  const groupOf = (key: string[]): Middleware<S, C> | null => {
    const id = key.join("/");
    let group = groups.get(id);
    if (group === undefined) {
      const subset = routes.filter((route) => key.every((segment, i) => mayMatch(segmentsOf(route), i, segment)));
      group = subset.length > 0 ? build(subset) : null;
      groups.set(id, group);
    }
    return group;
  };
  const groupOfPath = (path: string): Middleware<S, C> | null => {
    const segments = path.split("/", DEPTH + 1); // "/a/b/…" → ["", "a", "b"]
    const key: string[] = [];
    for (let i = 0; i < DEPTH; i++) {
      const segment = segments[i + 1]?.toLowerCase() ?? OTHER;
      key.push(literals[i]!.has(segment) ? segment : OTHER);
    }
    return groupOf(key);
  };
  // The group of a path's first segments as the request wrote them, remembered (most requests share a
  // few prefixes); bounded, as clients choose what they send.
  const byPrefix = new Map<string, Middleware<S, C> | null>();
  return (ctx: ParameterizedContext<S, C>, next: Next) => {
    const path = ctx.path;
    let end = 0;
    for (let i = 0; i < DEPTH && end >= 0; i++) end = path.indexOf("/", end + 1);
    const prefix = end < 0 ? path : path.slice(0, end);
    let group = byPrefix.get(prefix);
    if (group === undefined) {
      group = groupOfPath(prefix);
      if (byPrefix.size >= PREFIXES_KEPT) byPrefix.clear();
      byPrefix.set(prefix, group);
    }
    return group ? (group(ctx, next) as Promise<unknown>) : (next() as Promise<unknown>);
  };
}

/** Request path prefixes whose group is remembered; forgotten all at once when full. */
const PREFIXES_KEPT = 4096;

function literalAt(segments: readonly PathSegment[], i: number): string | undefined {
  const segment = segments[i];
  return segment && "literal" in segment ? segment.literal.toLowerCase() : undefined;
}

/** Whether a route can match a path whose segment `i` has this key: a variable or a missing segment may (kept to be safe). */
function mayMatch(segments: readonly PathSegment[], i: number, key: string): boolean {
  const literal = literalAt(segments, i);
  return literal === undefined || literal === key;
}
