/**
 * api.workers: server CPU per request and throughput of `chain-rest start`
 * with 1 and 2 REST workers (and `gateway --node` with 2), all started from
 * copies of one home and measured in alternating slices (a load change falls
 * on all alike). CPU = user + system time of the server's process and its
 * workers (and, for the gateway, of the node it asks), from /proc, around
 * each slice, after a warm-up. The load generator (this process, autocannon) is pinned to CPU
 * 0; the "pinned" servers to CPU 1, so their CPU per request compares one
 * worker and two on the same core (the cost of coordination), and the
 * unpinned two-worker server shows what a second core gives while it shares
 * CPU 0 with the load generator. The control: two independent one-process
 * servers both on CPU 1, loaded at once (half the connections each) — two
 * processes sharing a core with no coordination at all — separates what two
 * workers lose by sharing one core from what their coordination costs.
 *
 * The cold row asks each target every account at most once (fixed request
 * counts per slice, not seconds): an account asked again would be answered by
 * the answer cache from its third ask on, and a one-process server (one answer
 * cache for all requests) would meet those repeats twice as often as each of
 * two workers does. What the cold row still reads from memory is the state
 * store's read cache (the node's scan windows in one process, each worker's
 * own in the copy), which reads a thousand neighbouring entries at each miss.
 *
 *   npx tsx bench/workers.bench.ts [accounts=50000]    (also npm run bench -- workers)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareHome, editConfig, type BenchHome } from "./benchHome.js";
import {
  child,
  cpuSeconds,
  serverCommand,
  load,
  machine,
  processTree,
  record,
  scratchDir,
  startChainRest,
  treeContextSwitches,
  treeCpuSeconds,
  type Child,
} from "./benchTools.js";

const SLICES = 6;
const SLICE_SECONDS = 2;
/**
 * Load on each target before its slices: every process compiles its own hot code (JIT) and two compile
 * it twice, each with half the requests. A probe (bench/workersProbe.ts, PROBE_SLICES=5) showed CPU a
 * request still falling over the first ~15,000 requests of two processes (4 s was not enough).
 */
const WARM_UP_SECONDS = 10;
const CONNECTIONS = 16;
/** The cold row's requests before its slices, on each target (the rest of the accounts are shared out among the slices). */
const COLD_WARM_UP = 15_000;

interface Target {
  name: string;
  /** One server, or the control's two (each loaded with half the connections, at the same time). */
  urls: string[];
  /** The processes whose CPU the requests cost (a server's tree; a gateway's and its node's). */
  pids: number[];
  stop(): Promise<void>;
}

function pin(pids: number[], cpus: string): void {
  for (const pid of pids) execFileSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
}

async function startCopy(
  bench: BenchHome,
  dir: string,
  name: string,
  workers: number,
  cpus: string,
  env: Record<string, string> = {},
): Promise<Target & { rpcUrl: string }> {
  const home = path.join(dir, name);
  fs.cpSync(bench.home, home, { recursive: true });
  editConfig(home, "app.toml", "workers = 1", `workers = ${workers}`);
  const server = await startChainRest(home, undefined, env);
  pin(processTree(server.node.proc.pid!), cpus);
  return { name, urls: [server.restUrl], rpcUrl: server.rpcUrl, pids: [server.node.proc.pid!], stop: () => server.node.stop() };
}

async function startGatewayWorkers(dir: string, node: Target & { rpcUrl: string }, workers: number, cpus: string): Promise<Target> {
  const home = path.join(dir, "gateway");
  fs.mkdirSync(path.join(home, "config"), { recursive: true });
  const gateway: Child = child([...serverCommand(), "gateway", "--home", home, "--node", node.rpcUrl, "--api.address", "tcp://127.0.0.1:0"]);
  await gateway.waitFor(/node RPC:/); // app.toml now written with its defaults
  await gateway.stop();
  editConfig(home, "app.toml", "workers = 1", `workers = ${workers}`);
  const again = child([...serverCommand(), "gateway", "--home", home, "--node", node.rpcUrl, "--api.address", "tcp://127.0.0.1:0"]);
  const url = (await again.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
  pin(processTree(again.proc.pid!), cpus);
  return { name: `gateway --node, ${workers} workers`, urls: [url], pids: [again.proc.pid!, node.pids[0]!], stop: () => again.stop() };
}

/** The machine's load average over the last minute, at the end of a measurement (other users' processes disturb it). */
const load1 = () => `load average ${os.loadavg()[0]!.toFixed(1)}`;

export async function workersBenchmark(bench: BenchHome, dir: string): Promise<void> {
  console.log(`\nworkers: server CPU per request and throughput, 1 and 2 REST workers (${machine()})`);
  pin([process.pid], "0"); // the load generator
  const one = await startCopy(bench, dir, "start, 1 worker (CPU 1)", 1, "1");
  const twoPinned = await startCopy(bench, dir, "start, 2 workers (both on CPU 1)", 2, "1");
  // Node's other cluster policy: every worker accepts on the shared socket itself (the kernel picks), the main process takes no part
  const twoSchedNone = await startCopy(bench, dir, "start, 2 workers (both on CPU 1), cluster scheduling none", 2, "1", {
    NODE_CLUSTER_SCHED_POLICY: "none",
  });
  const two = await startCopy(bench, dir, "start, 2 workers (CPUs 0-1)", 2, "0-1");
  const gateway = await startGatewayWorkers(dir, one, 2, "1");
  const [alone1, alone2] = [await startCopy(bench, dir, "control-a", 1, "1"), await startCopy(bench, dir, "control-b", 1, "1")];
  const control: Target = {
    name: "two independent 1-process servers (both on CPU 1, loaded at once)",
    urls: [...alone1.urls, ...alone2.urls],
    pids: [...alone1.pids, ...alone2.pids],
    stop: () => Promise.all([alone1.stop(), alone2.stop()]).then(() => undefined),
  };
  const targets: Target[] = [one, twoPinned, twoSchedNone, two, gateway, control];
  const [TWO_PINNED, TWO_CORES, CONTROL] = [1, 3, 5];
  /** Loads every URL of a target at once, the connections shared among them; the requests and seconds summed. */
  const loadTarget = async (target: Target, pathOf: (i: number) => string, length: { duration: number } | { amount: number }) => {
    const share = "amount" in length ? { amount: Math.floor(length.amount / target.urls.length) } : length;
    const runs = await Promise.all(target.urls.map((url) => load(url, pathOf, { ...share, connections: CONNECTIONS / target.urls.length })));
    return { total: runs.reduce((sum, run) => sum + run.total, 0), seconds: Math.max(...runs.map((run) => run.seconds)) };
  };
  const hot = `/core/bank/v1beta1/balances/${bench.addresses[0]}`;
  // each request another account, never asked before on that target (the answer cache keeps nothing for it)
  const next = targets.map(() => 1);
  const cold = (t: number) => () => {
    if (next[t]! >= bench.addresses.length) throw new Error("the cold row ran out of accounts: it must not ask one twice");
    return `/core/bank/v1beta1/balances/${bench.addresses[next[t]!++]}`;
  };
  const coldSlice = { amount: Math.floor((bench.addresses.length - 1 - COLD_WARM_UP - CONNECTIONS * SLICES) / SLICES) };
  try {
    for (const [kind, pathOf, warmUp, sliceLength] of [
      ["hot balance (the answer cache)", () => () => hot, { duration: WARM_UP_SECONDS }, { duration: SLICE_SECONDS }],
      ["cold balance (another account each time: a node read)", cold, { amount: COLD_WARM_UP }, coldSlice],
    ] as const) {
      for (const [t, target] of targets.entries()) await loadTarget(target, pathOf(t), warmUp);
      // mainCpu: the first process of each tree alone (start: the node and the cluster's primary; one process: all of it)
      const totals = targets.map(() => ({ cpu: 0, mainCpu: 0, switches: 0, requests: 0, seconds: 0 }));
      for (let slice = 0; slice < SLICES; slice++) {
        const order = slice % 2 === 0 ? [...targets.keys()] : [...targets.keys()].reverse();
        for (const t of order) {
          const target = targets[t]!;
          const cpuBefore = target.pids.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
          const mainBefore = cpuSeconds(target.pids[0]!);
          const switchesBefore = target.pids.reduce((sum, pid) => sum + treeContextSwitches(pid), 0);
          const run = await loadTarget(target, pathOf(t), sliceLength);
          totals[t]!.cpu += target.pids.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0) - cpuBefore;
          totals[t]!.mainCpu += cpuSeconds(target.pids[0]!) - mainBefore;
          totals[t]!.switches += target.pids.reduce((sum, pid) => sum + treeContextSwitches(pid), 0) - switchesBefore;
          totals[t]!.requests += run.total;
          totals[t]!.seconds += run.seconds;
        }
      }
      const perRequest = (t: number) => (totals[t]!.cpu / totals[t]!.requests) * 1e6;
      const mainShare = (t: number) =>
        `; of which the main process (the node and the cluster's primary) ${((totals[t]!.mainCpu / totals[t]!.requests) * 1e6).toFixed(1)} µs a request`;
      const switchesPerRequest = (t: number) => (totals[t]!.switches / totals[t]!.requests).toFixed(2);
      const rps = (t: number) => totals[t]!.requests / totals[t]!.seconds;
      const base = 0;
      for (const t of [1, 2, 4, CONTROL]) {
        record({
          subject: `${kind}, ${targets[t]!.name}: server CPU per request`,
          baseline: `${targets[base]!.name}`,
          ratio: perRequest(base) / perRequest(t),
          target: t === CONTROL ? "none (the control: two processes sharing one core)" : "≥ 0.9x (at most 10 % CPU per request lost to coordination)",
          subjectValue: `${perRequest(t).toFixed(0)} µs (${switchesPerRequest(t)} context switches)`,
          baselineValue: `${perRequest(base).toFixed(0)} µs (${switchesPerRequest(base)} context switches)`,
          note: `ratio = baseline CPU / subject CPU;${t === CONTROL ? " the control: what two processes lose by sharing one core, with no coordination;" : ""} context switches of every thread of the server's processes, per request; ${totals[t]!.requests} and ${totals[base]!.requests} requests, ${SLICES} alternating slices, ${CONNECTIONS} connections, load generator on CPU 0; CPU of every process of the server (main and workers)${kind.startsWith("cold") ? "; each account asked at most once per target" : ""}; ${load1()}${t === 4 ? "; the gateway's CPU includes the node's (its JSON-RPC reads)" : ""}${t === TWO_PINNED ? mainShare(t) : ""}`,
        });
      }
      record({
        subject: `${kind}, ${targets[TWO_PINNED]!.name}: server CPU per request, against the control`,
        baseline: targets[CONTROL]!.name,
        ratio: perRequest(CONTROL) / perRequest(TWO_PINNED),
        target: "≥ 0.9x (the workers' coordination alone: both sides are two processes sharing CPU 1)",
        subjectValue: `${perRequest(TWO_PINNED).toFixed(0)} µs (${switchesPerRequest(TWO_PINNED)} context switches)`,
        baselineValue: `${perRequest(CONTROL).toFixed(0)} µs (${switchesPerRequest(CONTROL)} context switches)`,
        note: `ratio = baseline CPU / subject CPU; the same slices as the rows above; ${load1()}`,
      });
      record({
        subject: `${kind}, ${targets[TWO_CORES]!.name}: throughput`,
        baseline: `${targets[base]!.name}`,
        ratio: rps(TWO_CORES) / rps(base),
        target: "> 1x (a second core serves; the load generator shares CPU 0)",
        subjectValue: `${rps(TWO_CORES).toFixed(0)} req/s (${perRequest(TWO_CORES).toFixed(0)} µs CPU a request)`,
        baselineValue: `${rps(base).toFixed(0)} req/s`,
        note: `2 cores shared with the load generator and other users of the machine; ${load1()}`,
      });
    }
  } finally {
    await Promise.all([gateway.stop(), two.stop(), twoSchedNone.stop(), twoPinned.stop(), control.stop()]);
    await one.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = scratchDir("workers");
  const accounts = Number(process.argv[2] ?? 50_000);
  console.log(`preparing a home with ${accounts.toLocaleString("en")} funded accounts...`);
  await workersBenchmark(await prepareHome(dir, accounts, 10, 2), dir);
}
