/**
 * What telemetry costs on the hot path: the hot row (the same balance again,
 * answered from the answer cache) on `chain-rest start` with [telemetry]
 * enabled, against the same home (a copy) with it off, both at once, in
 * alternating turns, measured as each server's own CPU time per request. Request logs are off in both (they are a choice of
 * their own, api.log-requests).
 */
import fs from "node:fs";
import path from "node:path";
import { enableTelemetry } from "../test/helpers/telemetryHome.js";
import type { BenchHome } from "./benchHome.js";
import { cpuSeconds, get, load, record, startChainRest } from "./benchTools.js";

const BALANCES = "/core/bank/v1beta1/balances/";
const TURNS = 6;
const REQUESTS = 30000;

export async function telemetryCost(bench: BenchHome, dir: string): Promise<void> {
  const copy = path.join(dir, "home-telemetry");
  fs.cpSync(bench.home, copy, { recursive: true });
  enableTelemetry(copy);
  const [on, off] = await Promise.all([startChainRest(copy), startChainRest(bench.home)]);
  try {
    const route = BALANCES + bench.addresses[0]!;
    for (const server of [on, off]) for (let i = 0; i < 3; i++) if ((await get(server.restUrl + route)).status !== 200) throw new Error(`${route} failed`);
    if ((await get(`${on.restUrl}/metrics?format=prometheus`)).status !== 200) throw new Error("telemetry is not on");
    // Server CPU per request (the process's own user + system time), not throughput: the two servers and
    // the load generator share the machine's cores, so req/s moves with whatever else runs.
    const servers = { with: on, without: off };
    const cpu = { with: 0, without: 0 };
    const requests = { with: 0, without: 0 };
    for (let turn = 0; turn < TURNS; turn++) {
      // A B, then B A: neither side always follows the other
      const sides = turn % 2 === 0 ? (["with", "without"] as const) : (["without", "with"] as const);
      for (const side of sides) {
        const pid = servers[side].node.proc.pid!;
        const before = cpuSeconds(pid);
        const run = await load(servers[side].restUrl, () => route, { amount: REQUESTS / TURNS, connections: 4 });
        cpu[side] += cpuSeconds(pid) - before;
        requests[side] += run.total;
      }
    }
    const perRequest = (side: "with" | "without") => (cpu[side] / requests[side]) * 1e6;
    const scrape = (await get(`${on.restUrl}/metrics?format=prometheus`)).body;
    const counted = scrape.match(
      /^chain_rest_api_requests_total\{[^}]*route="\/core\/bank\/v1beta1\/balances\/\{address\}"[^}]*status="200"[^}]*\} (\d+)/m,
    )?.[1];
    record({
      subject: "balance, same account again (hot), [telemetry] enabled: server CPU per request",
      baseline: "same with telemetry off",
      ratio: perRequest("without") / perRequest("with"),
      target: "≥ 0.95x (at most 5 % more CPU per request)",
      subjectValue: `${perRequest("with").toFixed(0)} µs`,
      baselineValue: `${perRequest("without").toFixed(0)} µs`,
      note: `ratio = baseline CPU / subject CPU; ${requests.with} and ${requests.without} requests in ${TURNS} alternating turns, 4 connections; the telemetry server counted ${counted ?? "?"} requests of the route (with the warm-up)`,
    });
  } finally {
    await Promise.all([on.node.stop(), off.node.stop()]);
    fs.rmSync(copy, { recursive: true, force: true });
  }
}
