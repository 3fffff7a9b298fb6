import type { Metric, Registry } from "prom-client";

/**
 * Metric families whose children are plain numbers, resolved once per label
 * set and then moved on the hot path with `cell.value++` or `observe(seconds)`.
 * prom-client's own children hash their labels on every inc() and observe()
 * (a string built per request); these hand prom-client only what it needs at a
 * scrape — the registry, its default labels and the exposition format stay
 * prom-client's.
 */
export type Labels = Record<string, string>;

export interface CounterCell {
  value: number;
}

export class HistogramCell {
  /** Per bucket (not cumulative), the last one for observations above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

interface ExportedValue {
  value: number;
  labels: Labels;
  metricName?: string;
}

type MetricType = "counter" | "gauge" | "histogram";

/** A family registered with prom-client as a custom metric: get() reports its children at a scrape. */
abstract class Family<C> {
  protected readonly children = new Map<string, { labels: Labels; cell: C }>();

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    readonly type: MetricType,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** The child of these labels (created on first ask): resolve it once, outside the hot path. */
  child(labels: Labels = {}): C {
    const key = Object.values(labels).join("\u0000");
    let entry = this.children.get(key);
    if (!entry) {
      entry = { labels, cell: this.newCell() };
      this.children.set(key, entry);
    }
    return entry.cell;
  }

  protected abstract newCell(): C;
  protected abstract values(labels: Labels, cell: C): ExportedValue[];

  get(): Promise<{ name: string; help: string; type: MetricType; aggregator: "sum"; values: ExportedValue[] }> {
    const values = [...this.children.values()].flatMap(({ labels, cell }) => this.values(labels, cell));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: "sum", values });
  }
}

export class CounterFamily extends Family<CounterCell> {
  constructor(registry: Registry, name: string, help: string) {
    super(registry, name, help, "counter");
  }
  protected newCell(): CounterCell {
    return { value: 0 };
  }
  protected values(labels: Labels, cell: CounterCell): ExportedValue[] {
    return [{ value: cell.value, labels }];
  }
}

/** Gauges (and counters kept by their owner) read at a scrape from the function each child was given. */
export class ReadFamily extends Family<{ read: () => number }> {
  constructor(registry: Registry, name: string, help: string, type: "gauge" | "counter" = "gauge") {
    super(registry, name, help, type);
  }
  /** Reports `read()` under these labels. */
  reads(read: () => number, labels: Labels = {}): void {
    this.child(labels).read = read;
  }
  protected newCell(): { read: () => number } {
    return { read: () => 0 };
  }
  protected values(labels: Labels, cell: { read: () => number }): ExportedValue[] {
    return [{ value: cell.read(), labels }];
  }
}

export class HistogramFamily extends Family<HistogramCell> {
  constructor(
    registry: Registry,
    name: string,
    help: string,
    private readonly bounds: readonly number[],
  ) {
    super(registry, name, help, "histogram");
  }
  protected newCell(): HistogramCell {
    return new HistogramCell(this.bounds);
  }
  protected values(labels: Labels, cell: HistogramCell): ExportedValue[] {
    let cumulative = 0;
    const buckets = this.bounds.map((bound, i) => {
      cumulative += cell.counts[i]!;
      return { value: cumulative, labels: { ...labels, le: String(bound) }, metricName: `${this.name}_bucket` };
    });
    return [
      ...buckets,
      { value: cell.count, labels: { ...labels, le: "+Inf" }, metricName: `${this.name}_bucket` },
      { value: cell.sum, labels, metricName: `${this.name}_sum` },
      { value: cell.count, labels, metricName: `${this.name}_count` },
    ];
  }
}

/** Latency buckets in seconds, from an answer kept in memory to a slow node. */
export const SECONDS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
