/**
 * What telemetry costs on the hot path: the hot row (the same balance again,
 * answered from the answer cache) on `chain-rest start` with [telemetry]
 * enabled, against the same home (a copy) with it off, measured as each
 * server's own CPU time per request. Request logs are off in both (they are a
 * choice of their own, api.log-requests).
 *
 * The cost is a few per cent and the noise is larger: two identical servers
 * differ by up to 8 % for their whole life (what the JIT decided, where the
 * heap and the scheduler put them), and the machine's load moves from second
 * to second. So each round starts a fresh pair, warms both up unmeasured (the
 * JIT compiles on threads whose CPU is the process's), then loads both at
 * once for the same window: the machine's load falls on both alike, and the
 * processes' own luck averages out over ROUNDS pairs.
 */
import fs from "node:fs";
import path from "node:path";
import { enableTelemetry } from "../test/helpers/telemetryHome.js";
import type { BenchHome } from "./benchHome.js";
import { cpuSeconds, get, load, record, startChainRest } from "./benchTools.js";

const BALANCES = "/core/bank/v1beta1/balances/";
const ROUNDS = 6;
const WARM_UP_S = 2;
const MEASURED_S = 5;
const CONNECTIONS = 4;

type Side = "with" | "without";
interface Totals {
  cpu: Record<Side, number>;
  requests: Record<Side, number>;
  /** Per round: baseline CPU per request / subject CPU per request. */
  rounds: number[];
  counted: string;
}

export async function telemetryCost(bench: BenchHome, dir: string): Promise<void> {
  const copy = path.join(dir, "home-telemetry");
  fs.cpSync(bench.home, copy, { recursive: true });
  enableTelemetry(copy);
  const route = BALANCES + bench.addresses[0]!;
  const totals: Totals = { cpu: { with: 0, without: 0 }, requests: { with: 0, without: 0 }, rounds: [], counted: "" };
  try {
    for (let round = 0; round < ROUNDS; round++) await measureRound(copy, bench.home, route, totals, round % 2 === 0);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
  const perRequest = (side: Side) => (totals.cpu[side] / totals.requests[side]) * 1e6;
  record({
    subject: "balance, same account again (hot), [telemetry] enabled: server CPU per request",
    baseline: "same with telemetry off",
    ratio: perRequest("without") / perRequest("with"),
    target: "≥ 0.95x (at most 5 % more CPU per request)",
    subjectValue: `${perRequest("with").toFixed(0)} µs`,
    baselineValue: `${perRequest("without").toFixed(0)} µs`,
    note:
      `ratio = baseline CPU / subject CPU over ${totals.requests.with} and ${totals.requests.without} requests: ${ROUNDS} fresh pairs of servers, ` +
      `each warmed up ${WARM_UP_S} s, then both loaded at once for ${MEASURED_S} s (${CONNECTIONS} connections each); ` +
      `the pairs' own ratios: ${totals.rounds.map((r) => r.toFixed(2)).join(", ")}; the last telemetry server counted ${totals.counted} requests of the route`,
  });
}

/**
 * One fresh pair of servers: both warmed up, then both measured over the same window. Which one is
 * started and loaded first alternates by round: in trials with two identical servers, the first
 * came out dearer in five of six.
 */
async function measureRound(telemetryHome: string, plainHome: string, route: string, totals: Totals, telemetryFirst: boolean): Promise<void> {
  const started = await Promise.all((telemetryFirst ? [telemetryHome, plainHome] : [plainHome, telemetryHome]).map((home) => startChainRest(home)));
  const [on, off] = telemetryFirst ? [started[0]!, started[1]!] : [started[1]!, started[0]!];
  try {
    // both are asked (the same warm-up): 200 with telemetry, an unknown path without
    if ((await get(`${on.restUrl}/metrics?format=prometheus`)).status !== 200) throw new Error("telemetry is not on");
    if ((await get(`${off.restUrl}/metrics?format=prometheus`)).status === 200) throw new Error("telemetry is on in the baseline");
    const sides = [
      { side: "with" as const, server: on },
      { side: "without" as const, server: off },
    ];
    if (!telemetryFirst) sides.reverse();
    for (const { server } of sides) if ((await get(server.restUrl + route)).status !== 200) throw new Error(`${route} failed`);
    const loadBoth = (seconds: number) =>
      Promise.all(sides.map(({ server }) => load(server.restUrl, () => route, { duration: seconds, connections: CONNECTIONS })));
    await loadBoth(WARM_UP_S);
    // the process's own user + system time, not req/s: the servers and the load generator share the cores
    const before = sides.map(({ server }) => cpuSeconds(server.node.proc.pid!));
    const runs = await loadBoth(MEASURED_S);
    const perRequest = { with: 0, without: 0 };
    sides.forEach(({ side, server }, i) => {
      const cpu = cpuSeconds(server.node.proc.pid!) - before[i]!;
      totals.cpu[side] += cpu;
      totals.requests[side] += runs[i]!.total;
      perRequest[side] = cpu / runs[i]!.total;
    });
    totals.rounds.push(perRequest.without / perRequest.with);
    const scrape = (await get(`${on.restUrl}/metrics?format=prometheus`)).body;
    totals.counted =
      scrape.match(/^chain_rest_api_requests_total\{[^}]*route="\/core\/bank\/v1beta1\/balances\/\{address\}"[^}]*status="200"[^}]*\} (\d+)/m)?.[1] ?? "?";
  } finally {
    await Promise.all([on.node.stop(), off.node.stop()]);
  }
}
