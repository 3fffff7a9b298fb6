import type { Registry } from "prom-client";

/** One aggregate of go-metrics' in-memory sink, as v0.41's /metrics writes it in JSON. */
interface SampledValue {
  Name: string;
  Count: number;
  Rate: number;
  Sum: number;
  Min: number;
  Max: number;
  Mean: number;
  Stddev: number;
  Labels: Record<string, string>;
}

/** v0.41's default (JSON) form of /metrics: go-metrics' MetricsSummary. */
export interface MetricsSummary {
  Timestamp: string;
  Gauges: Array<{ Name: string; Value: number; Labels: Record<string, string> }>;
  Points: never[];
  Counters: SampledValue[];
  Samples: SampledValue[];
}

interface JsonValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/**
 * The registry in MetricsSummary's shape. go-metrics aggregates over its last
 * 10 s interval; here every value is the total since the process started
 * (Rate = per second since then), which is what the Prometheus form says too.
 * A histogram's Min and Max are the bounds of its lowest and highest used
 * buckets (Max: at most its highest bound).
 */
export async function metricsSummary(registry: Registry, startedAt: number, now = new Date()): Promise<MetricsSummary> {
  const seconds = Math.max((now.getTime() - startedAt) / 1000, 1e-3);
  const summary: MetricsSummary = { Timestamp: goTime(now), Gauges: [], Points: [], Counters: [], Samples: [] };
  for (const metric of await registry.getMetricsAsJSON()) {
    const values = metric.values as JsonValue[];
    const type = String(metric.type);
    if (type === "gauge") {
      for (const v of values) summary.Gauges.push({ Name: metric.name, Value: v.value, Labels: textLabels(v.labels) });
    } else if (type === "counter") {
      for (const v of values) summary.Counters.push(sampled(metric.name, v.value, v.value, v.labels, seconds));
    } else if (type === "histogram") {
      summary.Samples.push(...histogramSamples(metric.name, values, seconds));
    }
  }
  return summary;
}

function sampled(name: string, count: number, sum: number, labels: JsonValue["labels"], seconds: number, min?: number, max?: number): SampledValue {
  const mean = count > 0 ? sum / count : 0;
  return { Name: name, Count: count, Rate: sum / seconds, Sum: sum, Min: min ?? mean, Max: max ?? mean, Mean: mean, Stddev: 0, Labels: textLabels(labels) };
}

/** One sample per label set of a histogram, from its _count, _sum and cumulative _bucket values. */
function histogramSamples(name: string, values: JsonValue[], seconds: number): SampledValue[] {
  const series = new Map<string, { labels: JsonValue["labels"]; count: number; sum: number; buckets: Array<[number, number]> }>();
  for (const v of values) {
    const { le, ...labels } = v.labels;
    const key = JSON.stringify(labels);
    let entry = series.get(key);
    if (!entry) series.set(key, (entry = { labels, count: 0, sum: 0, buckets: [] }));
    if (v.metricName?.endsWith("_count")) entry.count = v.value;
    else if (v.metricName?.endsWith("_sum")) entry.sum = v.value;
    else if (le !== undefined) entry.buckets.push([le === "+Inf" ? Infinity : Number(le), v.value]);
  }
  return [...series.values()].map(({ labels, count, sum, buckets }) => {
    buckets.sort((a, b) => a[0] - b[0]);
    const firstUsed = buckets.findIndex(([, cumulative]) => cumulative > 0);
    const min = firstUsed > 0 ? buckets[firstUsed - 1]![0] : 0;
    // the upper bound of the highest used bucket; above every bound, the highest bound (JSON has no Infinity)
    const finite = buckets.filter(([bound]) => Number.isFinite(bound));
    const max = finite.find(([, cumulative]) => cumulative >= count)?.[0] ?? finite.at(-1)?.[0] ?? 0;
    return sampled(name, count, sum, labels, seconds, count > 0 ? min : 0, count > 0 ? max : 0);
  });
}

function textLabels(labels: JsonValue["labels"]): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, String(v)]));
}

/** Go's time.Time String(): "2006-01-02 15:04:05.999999999 -0700 MST", here in UTC. */
function goTime(date: Date): string {
  return `${date.toISOString().replace("T", " ").replace("Z", "")} +0000 UTC`;
}
