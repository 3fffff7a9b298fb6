import type { PathSegment } from "../tables/routeSpec.js";
import { segmentAccepts } from "../tables/routeOverlap.js";

/** A route of either table, as operator settings name it. */
export interface TableRoute {
  family: "gateway" | "legacy";
  /** "get", "post" */
  verb: string;
  /** As the table writes it: /core/bank/v1beta1/balances/{address} */
  path: string;
  segments: PathSegment[];
  /** The proto methods it calls (a legacy route may call several; none for a transaction search). */
  methods: string[];
  /** A legacy route that searches transactions. */
  searchesTxs?: boolean;
}

/**
 * Whether a request path has the route's shape and each variable is a value its
 * patterns accept (as the router matches). Linear in the path: split once,
 * each segment compared once, the path's segment count must equal the route's.
 */
export function pathMatches(route: Pick<TableRoute, "segments">, segments: readonly string[]): boolean {
  if (segments.length !== route.segments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const want = route.segments[i]!;
    const value = segments[i]!;
    if ("literal" in want ? want.literal !== value : !segmentAccepts(want, value)) return false;
  }
  return true;
}

/** The path's segments, percent-decoded as the router decodes its parameters (a malformed escape stays as sent). */
export function pathSegments(url: string): string[] {
  const end = url.search(/[?#]/);
  const path = end < 0 ? url : url.slice(0, end);
  return path
    .split("/")
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}
