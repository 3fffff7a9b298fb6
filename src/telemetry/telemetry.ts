import os from "node:os";
import { createRequire } from "node:module";
import type { Registry } from "prom-client";
import { CounterFamily, HistogramFamily, ReadFamily } from "./cells.js";

// prom-client is loaded only when telemetry is enabled (off by default): a start without it need not load it
export const promClient = () => createRequire(import.meta.url)("prom-client") as typeof import("prom-client");

/** app.toml's [telemetry] section, v0.41's keys. */
export interface TelemetryConfig {
  "service-name": string;
  enabled: boolean;
  "enable-hostname": boolean;
  "enable-hostname-label": boolean;
  "enable-service-label": boolean;
  "prometheus-retention-time": number;
  "global-labels": string[][];
}

/**
 * How often the event-loop delay is sampled (nodejs_eventloop_lag_p99_seconds and its kin). prom-client's
 * default wakes the process ten times as often, and each wake-up is a context switch a busy server pays
 * for; each sample is still exact, only fewer are taken.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * The process's metrics: one prom-client registry (with Node's own process
 * metrics) and the naming rules of v0.41's [telemetry] keys. The REST server,
 * the embedded node and the gateway's node client each add their families.
 */
export class Telemetry {
  readonly registry: Registry = new (promClient().Registry)();
  /** Whether ?format=prometheus is served (prometheus-retention-time > 0, as in v0.41). */
  readonly prometheus: boolean;
  private readonly prefix: string;
  private readonly gaugePrefix: string;

  constructor(readonly config: TelemetryConfig) {
    this.prometheus = config["prometheus-retention-time"] > 0;
    const service = metricWord(config["service-name"]);
    this.prefix = service && !config["enable-service-label"] ? `${service}_` : "";
    this.gaugePrefix = config["enable-hostname"] ? `${metricWord(os.hostname())}_` : "";
    const labels: Record<string, string> = Object.fromEntries(config["global-labels"].map(([name, value]) => [name!, value!]));
    if (service && config["enable-service-label"]) labels.service = config["service-name"];
    if (config["enable-hostname-label"]) labels.host = os.hostname();
    this.registry.setDefaultLabels(labels);
    promClient().collectDefaultMetrics({ register: this.registry, prefix: this.prefix, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }

  counter(name: string, help: string): CounterFamily {
    return new CounterFamily(this.registry, this.prefix + name, help);
  }

  histogram(name: string, help: string, bounds: readonly number[]): HistogramFamily {
    return new HistogramFamily(this.registry, this.prefix + name, help, bounds);
  }

  /** A gauge read at each scrape. */
  gauge(name: string, help: string): ReadFamily {
    return new ReadFamily(this.registry, this.gaugePrefix + this.prefix + name, help);
  }

  /** A counter its owner keeps (a plain number), read at each scrape. */
  readCounter(name: string, help: string): ReadFamily {
    return new ReadFamily(this.registry, this.prefix + name, help, "counter");
  }
}

/** A word of a metric name: Prometheus allows [A-Za-z0-9_] (and no leading digit). */
function metricWord(text: string): string {
  const word = text.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[0-9]/.test(word) ? `_${word}` : word;
}
