import { expect } from "chai";
import os from "node:os";
import { Telemetry } from "../../src/telemetry/telemetry.js";
import { metricsSummary } from "../../src/telemetry/metricsSummary.js";
import { Scrape } from "../helpers/prometheusScrape.js";
import { TEST_TELEMETRY } from "../helpers/testTelemetry.js";

const CONFIG = TEST_TELEMETRY;

/** v0.41's naming keys, read through prom-client's own text format and a Prometheus text parser. */
describe("telemetry: [telemetry]'s naming keys", () => {
  const scrape = async (telemetry: Telemetry) => new Scrape(await telemetry.registry.metrics());

  it("prefixes names with service-name ('-' as '_') and puts global-labels on every series", async () => {
    const telemetry = new Telemetry({ ...CONFIG, "global-labels": [["chain_id", "devnet-1"]] });
    const cell = telemetry.counter("api_requests_total", "requests").child({ route: "/a/{b}" });
    cell.value += 3;
    const s = await scrape(telemetry);
    expect(s.value("chain_rest_api_requests_total", { route: "/a/{b}", chain_id: "devnet-1" })).to.equal(3);
    expect(s.family("chain_rest_process_cpu_seconds_total").type).to.equal("COUNTER"); // Node's own metrics, prefixed too
  });

  it("with enable-service-label, names the service in a label instead; with enable-hostname-label, the host", async () => {
    const telemetry = new Telemetry({ ...CONFIG, "enable-service-label": true, "enable-hostname-label": true });
    telemetry.gauge("node_height", "height").reads(() => 7);
    const s = await scrape(telemetry);
    expect(s.value("node_height", { service: "chain-rest", host: os.hostname() })).to.equal(7);
  });

  it("with enable-hostname, prefixes gauge names (not counters) with the host name", async () => {
    const telemetry = new Telemetry({ ...CONFIG, "enable-hostname": true });
    telemetry.gauge("node_height", "height").reads(() => 7);
    telemetry.counter("api_requests_total", "requests").child().value++;
    const host = os.hostname().replace(/[^A-Za-z0-9_]/g, "_");
    const s = await scrape(telemetry);
    expect(s.value(`${/^[0-9]/.test(host) ? "_" : ""}${host}_chain_rest_node_height`)).to.equal(7);
    expect(s.value("chain_rest_api_requests_total")).to.equal(1);
  });

  it("writes histograms whose buckets are cumulative and whose count is every observation, in both forms", async () => {
    const telemetry = new Telemetry(CONFIG);
    const cell = telemetry.histogram("latency_seconds", "latency", [0.1, 1]).child({ route: "/x" });
    for (const seconds of [0.05, 0.5, 0.5, 5]) cell.observe(seconds);
    const s = await scrape(telemetry);
    expect(s.histogramCount("chain_rest_latency_seconds", { route: "/x" })).to.equal(4);
    const text = await telemetry.registry.metrics();
    expect(text).to.include('chain_rest_latency_seconds_bucket{route="/x",le="0.1"} 1');
    expect(text).to.include('chain_rest_latency_seconds_bucket{route="/x",le="1"} 3');
    expect(text).to.include('chain_rest_latency_seconds_bucket{route="/x",le="+Inf"} 4');
    const summary = await metricsSummary(telemetry.registry, Date.now() - 2000);
    const sample = summary.Samples.find((x) => x.Name === "chain_rest_latency_seconds")!;
    expect(sample).to.include({ Count: 4, Sum: 6.05, Min: 0, Max: 1 });
    expect(sample.Labels).to.deep.equal({ route: "/x" });
  });
});
