import type { PathSegment, RouteSpec } from "./routeSpec.js";

/**
 * Finds two routes of the same verb that can match one path, with an example
 * path. Segments are told apart when both are different literals, when a
 * literal fails a variable's patterns, or when one variable must match a
 * pattern the other must not (the same regular expression in `match` and `reject`).
 */
export function findOverlap<R extends Pick<RouteSpec, "verb" | "segments"> | { verb: string; segments: PathSegment[] }>(
  routes: R[],
): [R, R, string] | undefined {
  for (let i = 0; i < routes.length; i++) {
    for (let j = i + 1; j < routes.length; j++) {
      const a = routes[i]!;
      const b = routes[j]!;
      if (a.verb !== b.verb || a.segments.length !== b.segments.length) continue;
      const example = commonPath(a.segments, b.segments);
      if (example !== undefined) return [a, b, example];
    }
  }
  return undefined;
}

function commonPath(a: PathSegment[], b: PathSegment[]): string | undefined {
  const parts: string[] = [];
  for (let k = 0; k < a.length; k++) {
    const part = commonSegment(a[k]!, b[k]!);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return "/" + parts.join("/");
}

function commonSegment(a: PathSegment, b: PathSegment): string | undefined {
  if ("literal" in a && "literal" in b) return a.literal === b.literal ? a.literal : undefined;
  if ("literal" in a) return accepts(b, a.literal) ? a.literal : undefined;
  if ("literal" in b) return accepts(a, b.literal) ? b.literal : undefined;
  if (excludes(a, b) || excludes(b, a)) return undefined;
  return `{${a.variable}}`;
}

function accepts(segment: PathSegment, value: string): boolean {
  if ("literal" in segment) return segment.literal === value;
  if (segment.match && !segment.match.test(value)) return false;
  if (segment.reject && segment.reject.test(value)) return false;
  return true;
}

type Variable = Extract<PathSegment, { variable: string }>;

function excludes(a: Variable, b: Variable): boolean {
  return !!a.match && !!b.reject && a.match.source === b.reject.source;
}

/** Whether a request segment value satisfies the route's patterns for that variable. */
export function segmentAccepts(segment: PathSegment, value: string): boolean {
  return accepts(segment, value);
}
