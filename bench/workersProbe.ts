/**
 * A probe of the workers bench's rows (`npm run bench -- workers:starts` records its pooled rows): one server with 1
 * worker, one with 2 and the control (two independent 1-process servers loaded
 * at once), all on CPU 1, asked the same cold balances, each account once per
 * pass, then a second pass over the same accounts. CPU per request of every
 * process of each target, from /proc. With BENCH_PROFILE_DIR set, the servers
 * run under --cpu-prof (compare a worker's profile with a control process's).
 * PROBE_HOT=1: the same account every time (the answer cache) instead. PROBE_INSTANCES=K: K
 * starts of every target (fresh copies of the home, alternating order), pooled, with the spread
 * of each start's ratios: equal servers differ by up to 10 % from one start to the next.
 *
 *   npx tsx bench/workersProbe.ts [accounts=30000] [perPass=20000]
 *   PROBE_INSTANCES=4 PROBE_WARM_UP=15000 npx tsx bench/workersProbe.ts 50000 15000
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareHome, editConfig, type BenchHome } from "./benchHome.js";
import { cpuSeconds, load, processTree, record, scratchDir, startChainRest } from "./benchTools.js";

export interface ProbeOptions {
  accounts: number;
  perPass: number;
  /** The same account every time (the answer cache) instead of each account once a pass. */
  hot: boolean;
  /** Starts of every target, pooled. */
  instances: number;
  /** Requests before the measured passes: two processes each compile their hot code with half of them. */
  warmUp: number;
  slices: number;
}

/** CPU per request pooled over the starts, by target ("one", "two workers", "control"), and each start's. */
export interface ProbeResult {
  pooled: Record<string, Sum>;
  perInstance: Array<Record<string, Sum>>;
}
type Sum = { cpu: number; requests: number };
export const usPerRequest = (sum: Sum) => (sum.cpu / sum.requests) * 1e6;

export async function workersProbe(bench: BenchHome, dir: string, options: ProbeOptions): Promise<ProbeResult> {
  const { accounts, perPass } = options;
  execFileSync("taskset", ["-a", "-p", "-c", "0", String(process.pid)], { stdio: "ignore" });

  async function start(name: string, workers: number) {
    const home = path.join(dir, name);
    fs.cpSync(bench.home, home, { recursive: true });
    editConfig(home, "app.toml", "workers = 1", `workers = ${workers}`);
    const server = await startChainRest(home);
    for (const pid of processTree(server.node.proc.pid!)) execFileSync("taskset", ["-a", "-p", "-c", "1", String(pid)], { stdio: "ignore" });
    return server;
  }

  const SLICED = options.slices;
  const WARM_UP = options.warmUp;
  const passes: Array<readonly [string, number, number]> = SLICED
    ? [
        ["warm-up", perPass, Math.min(WARM_UP, accounts - perPass)],
        ...Array.from({ length: SLICED }, (_, i) => [`slice ${i + 1}`, (i * perPass) / SLICED, perPass / SLICED] as const),
      ]
    : [
        ["warm-up (other accounts)", perPass, Math.min(WARM_UP, accounts - perPass)],
        ["pass 1 (each account once)", 0, perPass],
        ["pass 2 (the same accounts again)", 0, perPass],
      ];
  const INSTANCES = options.instances;
  const pooled: Record<string, Sum> = {};
  const perInstance: Array<Record<string, Sum>> = [];
  for (let instance = 0; instance < INSTANCES; instance++) {
    // every instance starts its servers anew (JIT, memory layout and caches are per process), in alternating order
    const started = [
      { name: "one", servers: [await start(`one-${instance}`, 1)] },
      { name: "two workers", servers: [await start(`two-${instance}`, 2)] },
      { name: "control", servers: [await start(`control-a-${instance}`, 1), await start(`control-b-${instance}`, 1)] },
    ];
    const targets = instance % 2 === 0 ? started : [...started].reverse();
    const instanceSums: Record<string, Sum> = {};
    for (const [pass, offset, amount] of passes) {
      for (const target of targets) {
        const pids = target.servers.flatMap((s) => processTree(s.node.proc.pid!));
        const before = new Map(pids.map((pid) => [pid, cpuSeconds(pid)]));
        let next = 0;
        const pathOf = options.hot
          ? () => `/core/bank/v1beta1/balances/${bench.addresses[0]}`
          : () => `/core/bank/v1beta1/balances/${bench.addresses[(offset + next++) % bench.addresses.length]}`;
        const share = target.servers.length;
        const runs = await Promise.all(
          target.servers.map((s) => load(s.node.proc.pid ? s.restUrl : "", pathOf, { amount: amount / share, connections: 16 / share })),
        );
        const total = runs.reduce((sum, run) => sum + run.total, 0);
        const used = pids.map((pid) => [pid, cpuSeconds(pid) - before.get(pid)!] as const);
        const all = used.reduce((sum, [, cpu]) => sum + cpu, 0);
        if (!pass.startsWith("warm-up")) {
          const sum = (pooled[target.name] ??= { cpu: 0, requests: 0 });
          sum.cpu += all;
          sum.requests += total;
          const mine = (instanceSums[target.name] ??= { cpu: 0, requests: 0 });
          mine.cpu += all;
          mine.requests += total;
        }
        console.log(
          `${pass.padEnd(34)} ${target.name}: ${((all / total) * 1e6).toFixed(0)} µs/request (${used.map(([pid, cpu]) => `${pid}: ${((cpu / total) * 1e6).toFixed(0)}`).join(", ")}), ${total} requests, load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
    perInstance.push(instanceSums);
    await Promise.all(targets.flatMap((t) => t.servers.map((s) => s.node.stop())));
    for (const name of ["one", "two", "control-a", "control-b"]) fs.rmSync(path.join(dir, `${name}-${instance}`), { recursive: true, force: true });
  }
  if (INSTANCES > 1) {
    const ratios = (of: string) => perInstance.map((sums) => usPerRequest(sums[of]!) / usPerRequest(sums["two workers"]!));
    const range = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}x`;
    console.log(`\npooled over ${INSTANCES} starts (the passes after the warm-up):`);
    for (const [name, sum] of Object.entries(pooled)) console.log(`  ${name}: ${usPerRequest(sum).toFixed(0)} µs/request (${sum.requests} requests)`);
    const [one, two, control] = [pooled["one"]!, pooled["two workers"]!, pooled["control"]!];
    console.log(`  two workers against one process: ${(usPerRequest(one) / usPerRequest(two)).toFixed(2)}x (the starts: ${range(ratios("one"))})`);
    console.log(`  two workers against the control: ${(usPerRequest(control) / usPerRequest(two)).toFixed(2)}x (the starts: ${range(ratios("control"))})`);
  }
  return { pooled, perInstance };
}

/** Pooled rows for results.json: two workers against one process and against the control, with each start's spread. */
export function recordProbe(kind: string, result: ProbeResult, options: ProbeOptions, loadAverage: string): void {
  const two = result.pooled["two workers"]!;
  for (const [of, name, target] of [
    ["one", "start, 1 worker (CPU 1)", "≥ 0.9x (at most 10 % CPU per request lost to coordination)"],
    [
      "control",
      "two independent 1-process servers (both on CPU 1, loaded at once)",
      "≥ 0.9x (the workers' coordination alone: both sides are two processes sharing CPU 1)",
    ],
  ] as const) {
    const base = result.pooled[of]!;
    const starts = result.perInstance.map((sums) => usPerRequest(sums[of]!) / usPerRequest(sums["two workers"]!));
    record({
      subject: `${kind}, start, 2 workers (both on CPU 1), pooled over ${options.instances} starts: server CPU per request${of === "control" ? ", against the control" : ""}`,
      baseline: `${name}, the same starts`,
      ratio: usPerRequest(base) / usPerRequest(two),
      target,
      subjectValue: `${usPerRequest(two).toFixed(0)} µs`,
      baselineValue: `${usPerRequest(base).toFixed(0)} µs`,
      note: `ratio = baseline CPU / subject CPU, pooled; each start's ratio ${Math.min(...starts).toFixed(2)}–${Math.max(...starts).toFixed(2)}x (equal servers differ by up to 10 % from one start to the next, so one start cannot settle a 10 % target); every target started ${options.instances} times from fresh copies of the home, in alternating order; ${options.warmUp} requests of warm-up, then 2 passes of ${options.perPass}; load generator on CPU 0; ${loadAverage}`,
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = scratchDir("workers-probe");
  const accounts = Number(process.argv[2] ?? 30_000);
  const options: ProbeOptions = {
    accounts,
    perPass: Number(process.argv[3] ?? 20_000),
    hot: Boolean(process.env.PROBE_HOT),
    instances: Number(process.env.PROBE_INSTANCES ?? 1),
    warmUp: Number(process.env.PROBE_WARM_UP ?? 5000),
    slices: Number(process.env.PROBE_SLICES ?? 0),
  };
  await workersProbe(await prepareHome(dir, accounts, 10, 2), dir, options);
}
