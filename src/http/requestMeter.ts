import type { Context, Next } from "koa";
import type { CounterCell, CounterFamily, HistogramCell, HistogramFamily } from "../telemetry/cells.js";
import { logLater, type Logger } from "../telemetry/logger.js";
import { answeredHeightText } from "./height.js";

/** What a matched route is labelled with: its family and its template as the table writes it. */
export interface RouteLabel {
  family: string;
  template: string;
}

/** The request metrics' families (absent: telemetry is off). */
export interface RequestFamilies {
  requests: CounterFamily;
  duration: HistogramFamily;
  refusals: CounterFamily;
}

/** What answerCache.ts marks on a request it answered from memory. */
interface CacheState {
  fromCache?: boolean;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]);
/** Paths served outside the route tables, labelled as themselves. */
const OWN_PATHS = new Set(["/metrics", "/healthz", "/readyz", "/events", "/swagger", "/swagger/"]);
const UNMATCHED: RouteLabel = { family: "none", template: "unmatched" };

/** What one route template and method are counted and logged with: resolved on its first request, then only moved. */
class MethodCells {
  readonly byStatus: Array<CounterCell | undefined> = [];
  /** The request log line's first members, the same for every request of the template and method. */
  readonly logHead: string;
  readonly duration: HistogramCell | undefined;

  constructor(
    private readonly families: RequestFamilies | undefined,
    private readonly labels: { family: string; route: string; method: string },
  ) {
    this.duration = families?.duration.child(labels);
    this.logHead = `"method":"${labels.method}","route":${JSON.stringify(labels.route)},"family":"${labels.family}","status":`;
  }

  status(code: number): CounterCell {
    return (this.byStatus[code] ??= this.families!.requests.child({ ...this.labels, status: String(code) }));
  }
}

/**
 * Counts requests by route template (never the raw path: a hundred thousand
 * addresses make one series), family, method and status, times them per
 * template, and writes one log line per request when asked. The template is
 * the one @koa/router ran (`_matchedRoute`), looked up in a table built once
 * from the route tables; the cells of a (template, method) are resolved on
 * its first request, so the hot path is two lookups and three additions, and
 * a log line is its template's first members and four values joined.
 */
export class RequestMeter {
  private readonly cells = new Map<string, Map<string, MethodCells>>();
  private readonly refused413: CounterCell | undefined;

  constructor(
    private readonly routes: ReadonlyMap<string, RouteLabel>,
    private readonly families: RequestFamilies | undefined,
    private readonly logger: Logger | undefined,
  ) {
    this.refused413 = families?.refusals.child({ cause: "413" });
  }

  readonly middleware = async (ctx: Context, next: Next): Promise<void> => {
    const started = performance.now();
    try {
      await next();
    } finally {
      this.record(ctx, performance.now() - started);
    }
  };

  /** A GET answered 200 without Koa: a kept answer (wireAnswers.ts) or, not `cached`, a first ask (directAnswers.ts). */
  recordWritten(route: unknown, ms: number, height: number | undefined, cached = true): void {
    const label = (typeof route === "string" ? this.routes.get(route) : undefined) ?? UNMATCHED;
    this.tally(label, "GET", 200, ms, height, cached);
  }

  private record(ctx: Context, ms: number): void {
    const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    const label = (typeof matched === "string" ? this.routes.get(matched) : undefined) ?? this.ownPath(ctx.path);
    const method = METHODS.has(ctx.method) ? ctx.method : "OTHER";
    const height = this.logger ? Number(answeredHeightText(ctx.res)) : 0;
    this.tally(label, method, ctx.status, ms, height > 0 ? height : undefined, (ctx.state as CacheState).fromCache === true);
  }

  private tally(label: RouteLabel, method: string, status: number, ms: number, height: number | undefined, cached: boolean): void {
    const cells = this.methodCells(label, method);
    if (this.families) {
      cells.status(status).value++;
      cells.duration!.observe(ms / 1000);
      if (status === 413) this.refused413!.value++;
    }
    if (this.logger) {
      const rounded = Math.round(ms * 100) / 100;
      logLater(this.logger, "request", `${cells.logHead}${status},"ms":${rounded}${height === undefined ? "" : `,"height":${height}`},"cached":${cached}`);
    }
  }

  private ownPath(path: string): RouteLabel {
    if (OWN_PATHS.has(path)) return this.routes.get(path) ?? UNMATCHED;
    return path.startsWith("/swagger/") ? (this.routes.get("/swagger/") ?? UNMATCHED) : UNMATCHED;
  }

  private methodCells(label: RouteLabel, method: string): MethodCells {
    let byMethod = this.cells.get(label.template);
    if (!byMethod) this.cells.set(label.template, (byMethod = new Map<string, MethodCells>()));
    let cells = byMethod.get(method);
    if (!cells) byMethod.set(method, (cells = new MethodCells(this.families, { family: label.family, route: label.template, method })));
    return cells;
  }
}

/** The labels of the paths served beside the route tables. */
export function ownPathLabels(): Array<[string, RouteLabel]> {
  return [...OWN_PATHS].map((path) => [path, { family: "ops", template: path === "/swagger/" ? "/swagger/{file}" : path }]);
}
