import type { Context, Middleware, Next } from "koa";
import type { Registry } from "prom-client";
import type { Telemetry } from "../telemetry/telemetry.js";
import { metricsSummary } from "../telemetry/metricsSummary.js";

/** How much of an unsupported ?format= value an error repeats. */
const SHOWN_FORMAT_CHARS = 64;

/**
 * GET /metrics, as v0.41's API server serves it when [telemetry] enabled = true:
 * `?format=prometheus` → Prometheus' text format (only with
 * prometheus-retention-time > 0), no format or `text` → the JSON form of
 * go-metrics' in-memory sink; any other format, or prometheus while it is off,
 * → 400 `{"error": "failed to gather metrics: ..."}` (v0.41 wrote that error in
 * its legacy REST form). Absent telemetry the path is not served at all.
 * `registryOf` gives what is served (REST workers: every process's metrics summed).
 */
export function metricsRoute(telemetry: Telemetry, registryOf: () => Promise<Registry> = () => Promise.resolve(telemetry.registry)): Middleware {
  const startedAt = Date.now();
  // not async: every other request passes through without a promise of this layer's own
  return (ctx: Context, next: Next): Promise<void> =>
    ctx.method === "GET" && ctx.path === "/metrics" ? serveMetrics(ctx, telemetry, registryOf, startedAt) : (next() as Promise<void>);
}

async function serveMetrics(ctx: Context, telemetry: Telemetry, registryOf: () => Promise<Registry>, startedAt: number): Promise<void> {
  const format = (new URLSearchParams(ctx.querystring).get("format") ?? "").trim();
  if (format === "prometheus" && telemetry.prometheus) {
    ctx.type = telemetry.registry.contentType;
    ctx.body = await (await registryOf()).metrics();
  } else if (format === "" || format === "text") {
    ctx.type = "application/json";
    ctx.body = JSON.stringify(await metricsSummary(await registryOf(), startedAt));
  } else {
    const reason = format === "prometheus" ? "prometheus metrics are not enabled" : `unsupported metrics format: ${format.slice(0, SHOWN_FORMAT_CHARS)}`;
    ctx.status = 400;
    ctx.type = "application/json";
    ctx.body = JSON.stringify({ error: `failed to gather metrics: ${reason}` });
  }
}
