/**
 * What telemetry costs on the hot path: the hot row (the same balance again,
 * answered from the answer cache) on `chain-rest start` with [telemetry]
 * enabled, against the same home (a copy) with it off, measured as each
 * server's own CPU time per request. Request logs are off in both (they are a
 * choice of their own, api.log-requests).
 *
 * The cost is a few per cent and the noise is as large: two identical servers
 * differed by up to 11 % for their whole life in trials (what the JIT decided,
 * where the heap and the scheduler put them), and the machine's load moves
 * from second to second. So each round starts a fresh pair and warms both up
 * unmeasured (the JIT compiles on threads whose CPU is the process's), then
 * runs alternating turns (A B, then B A), so the load of the moment falls on
 * both; the processes' own luck averages out over ROUNDS pairs. (Loading both
 * at once was tried: it doubled the CPU per request with contention and
 * measured the scheduler more than the server.)
 */
import fs from "node:fs";
import path from "node:path";
import { enableTelemetry } from "../test/helpers/telemetryHome.js";
import type { BenchHome } from "./benchHome.js";
import { cpuSeconds, get, load, record, startChainRest } from "./benchTools.js";

const BALANCES = "/core/bank/v1beta1/balances/";
const ROUNDS = 3;
const TURNS_PER_ROUND = 4;
const REQUESTS_PER_TURN = 5000;
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
      `each warmed up with ${REQUESTS_PER_TURN} requests, then ${TURNS_PER_ROUND} alternating turns of ${REQUESTS_PER_TURN} (${CONNECTIONS} connections); ` +
      `the pairs' own ratios: ${totals.rounds.map((r) => r.toFixed(2)).join(", ")}; the last telemetry server counted ${totals.counted} requests of the route`,
  });
}

/** One fresh pair of servers: both warmed up, then alternating measured turns; which one goes first alternates by round. */
async function measureRound(telemetryHome: string, plainHome: string, route: string, totals: Totals, telemetryFirst: boolean): Promise<void> {
  const [on, off] = await Promise.all([startChainRest(telemetryHome), startChainRest(plainHome)]);
  try {
    // both are asked (the same warm-up): 200 with telemetry, an unknown path without
    if ((await get(`${on.restUrl}/metrics?format=prometheus`)).status !== 200) throw new Error("telemetry is not on");
    if ((await get(`${off.restUrl}/metrics?format=prometheus`)).status === 200) throw new Error("telemetry is on in the baseline");
    const servers = { with: on, without: off };
    const turn = (side: Side) => load(servers[side].restUrl, () => route, { amount: REQUESTS_PER_TURN, connections: CONNECTIONS });
    const order: Side[] = telemetryFirst ? ["with", "without"] : ["without", "with"];
    for (const side of order) if ((await get(servers[side].restUrl + route)).status !== 200) throw new Error(`${route} failed`);
    for (const side of order) await turn(side);
    const cpu = { with: 0, without: 0 };
    const requests = { with: 0, without: 0 };
    for (let t = 0; t < TURNS_PER_ROUND; t++) {
      for (const side of t % 2 === 0 ? order : [...order].reverse()) {
        // the process's own user + system time, not req/s: the servers and the load generator share the cores
        const pid = servers[side].node.proc.pid!;
        const before = cpuSeconds(pid);
        const run = await turn(side);
        cpu[side] += cpuSeconds(pid) - before;
        requests[side] += run.total;
      }
    }
    for (const side of order) {
      totals.cpu[side] += cpu[side];
      totals.requests[side] += requests[side];
    }
    totals.rounds.push(cpu.without / requests.without / (cpu.with / requests.with));
    const scrape = (await get(`${on.restUrl}/metrics?format=prometheus`)).body;
    totals.counted =
      scrape.match(/^chain_rest_api_requests_total\{[^}]*route="\/core\/bank\/v1beta1\/balances\/\{address\}"[^}]*status="200"[^}]*\} (\d+)/m)?.[1] ?? "?";
  } finally {
    await Promise.all([on.node.stop(), off.node.stop()]);
  }
}
