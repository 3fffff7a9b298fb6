/**
 * What telemetry costs on the hot path: the hot row (the same balance again,
 * answered from the answer cache) on `chain-rest start` with [telemetry]
 * enabled, against the same home (a copy) with it off, both at once, in
 * interleaved slices. Request logs are off in both (they are a choice of
 * their own, api.log-requests).
 */
import fs from "node:fs";
import path from "node:path";
import { enableTelemetry } from "../test/helpers/telemetryHome.js";
import type { BenchHome } from "./benchHome.js";
import { get, interleavedLoad, record, SLICES, startChainRest, type Load } from "./benchTools.js";

const BALANCES = "/core/bank/v1beta1/balances/";

export async function telemetryCost(bench: BenchHome, dir: string): Promise<void> {
  const copy = path.join(dir, "home-telemetry");
  fs.cpSync(bench.home, copy, { recursive: true });
  enableTelemetry(copy);
  const [on, off] = await Promise.all([startChainRest(copy), startChainRest(bench.home)]);
  try {
    const route = BALANCES + bench.addresses[0]!;
    for (const server of [on, off]) for (let i = 0; i < 3; i++) if ((await get(server.restUrl + route)).status !== 200) throw new Error(`${route} failed`);
    if ((await get(`${on.restUrl}/metrics?format=prometheus`)).status !== 200) throw new Error("telemetry is not on");
    // twice the usual slices: the two processes share the machine's cores with the load generator
    const [withTelemetry, without] = (await interleavedLoad(
      [
        { url: on.restUrl, pathOf: () => route },
        { url: off.restUrl, pathOf: () => route },
      ],
      { slices: 2 * SLICES, seconds: 2 * 5 },
    )) as [Load, Load];
    const scrape = (await get(`${on.restUrl}/metrics?format=prometheus`)).body;
    const counted = scrape.match(
      /^chain_rest_api_requests_total\{[^}]*route="\/core\/bank\/v1beta1\/balances\/\{address\}"[^}]*status="200"[^}]*\} (\d+)/m,
    )?.[1];
    record({
      subject: "balance, same account again (hot), [telemetry] enabled",
      baseline: "same with telemetry off",
      ratio: withTelemetry.rps / without.rps,
      target: "≥ 0.95x",
      subjectValue: `${withTelemetry.rps.toFixed(0)} req/s`,
      baselineValue: `${without.rps.toFixed(0)} req/s`,
      p50: withTelemetry.p50,
      p99: withTelemetry.p99,
      note: `the telemetry server counted ${counted ?? "?"} requests of the route (${withTelemetry.total} answered 2xx in the measured slices, plus the warm-up)`,
    });
  } finally {
    await Promise.all([on.node.stop(), off.node.stop()]);
    fs.rmSync(copy, { recursive: true, force: true });
  }
}
