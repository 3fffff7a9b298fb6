import { expect } from "chai";
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from "parse-prometheus-text-format";
import { http } from "./http.js";

/**
 * One scrape of GET /metrics?format=prometheus, read by a real Prometheus
 * text-format parser. That parser folds the label sets of a histogram into one
 * (its flattenMetrics), so a histogram's series are read a second time with
 * its TYPE line saying untyped: its _bucket, _sum and _count lines are then
 * families of their own, one sample per label set.
 */
export class Scrape {
  private readonly families: Map<string, ParsedFamily>;
  private readonly histogramParts: Map<string, ParsedFamily>;

  constructor(readonly text: string) {
    this.families = new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]));
    const untyped = text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped");
    this.histogramParts = new Map();
    for (const part of parsePrometheusTextFormat(untyped)) {
      // each label set's lines make a family of their own here: join them by name
      const known = this.histogramParts.get(part.name);
      if (known) known.metrics.push(...part.metrics);
      else this.histogramParts.set(part.name, part);
    }
  }

  static async of(restUrl: string): Promise<Scrape> {
    const r = await http(`${restUrl}/metrics?format=prometheus`);
    expect(r.status, r.text).to.equal(200);
    expect(r.headers.get("content-type")).to.match(/^text\/plain; version=0\.0\.4/);
    return new Scrape(r.text);
  }

  family(name: string): ParsedFamily {
    const family = this.families.get(name);
    expect(family, `${name} in the scrape`).to.not.equal(undefined);
    return family!;
  }

  /** The samples of a family whose labels include these. */
  samples(name: string, labels: Record<string, string> = {}): ParsedSample[] {
    return this.family(name).metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  }

  /** A counter's or gauge's value under exactly matching labels (0 when the series is not there yet). */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.samples(name, labels);
    expect(found.length, `${name} ${JSON.stringify(labels)}: one series`).to.be.at.most(1);
    return found.length ? Number(found[0]!.value) : 0;
  }

  /** The _count series of a histogram whose labels include these. */
  histogramCounts(name: string, labels: Record<string, string> = {}): ParsedSample[] {
    expect(this.family(name).type).to.equal("HISTOGRAM");
    const counts = this.histogramParts.get(`${name}_count`)?.metrics ?? [];
    return counts.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  }

  /** A histogram's count under exactly matching labels (0 when the series is not there yet). */
  histogramCount(name: string, labels: Record<string, string>): number {
    const found = this.histogramCounts(name, labels);
    expect(found.length, `${name} ${JSON.stringify(labels)}: one series`).to.be.at.most(1);
    return found.length ? Number(found[0]!.value) : 0;
  }
}
