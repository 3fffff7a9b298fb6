/**
 * A probe of the workers bench's cold row (not a bench row): one server with 1
 * worker, one with 2 and the control (two independent 1-process servers loaded
 * at once), all on CPU 1, asked the same cold balances, each account once per
 * pass, then a second pass over the same accounts. CPU per request of every
 * process of each target, from /proc. With BENCH_PROFILE_DIR set, the servers
 * run under --cpu-prof (compare a worker's profile with a control process's).
 * PROBE_HOT=1: the same account every time (the answer cache) instead.
 *
 *   npx tsx bench/workersProbe.ts [accounts=30000] [perPass=20000]
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareHome, editConfig } from "./benchHome.js";
import { cpuSeconds, load, processTree, scratchDir, startChainRest } from "./benchTools.js";

const dir = scratchDir("workers-probe");
const accounts = Number(process.argv[2] ?? 30_000);
const perPass = Number(process.argv[3] ?? 20_000);
const bench = await prepareHome(dir, accounts, 10, 2);
execFileSync("taskset", ["-a", "-p", "-c", "0", String(process.pid)], { stdio: "ignore" });

async function start(name: string, workers: number) {
  const home = path.join(dir, name);
  fs.cpSync(bench.home, home, { recursive: true });
  editConfig(home, "app.toml", "workers = 1", `workers = ${workers}`);
  const server = await startChainRest(home);
  for (const pid of processTree(server.node.proc.pid!)) execFileSync("taskset", ["-a", "-p", "-c", "1", String(pid)], { stdio: "ignore" });
  return server;
}

const targets = [
  { name: "one", servers: [await start("one", 1)] },
  { name: "two workers", servers: [await start("two", 2)] },
  { name: "control", servers: [await start("control-a", 1), await start("control-b", 1)] },
];
const SLICED = Number(process.env.PROBE_SLICES ?? 0);
const passes: Array<readonly [string, number, number]> = SLICED
  ? [
      ["warm-up", perPass, Math.min(5000, accounts - perPass)],
      ...Array.from({ length: SLICED }, (_, i) => [`slice ${i + 1}`, (i * perPass) / SLICED, perPass / SLICED] as const),
    ]
  : [
      ["warm-up (other accounts)", perPass, Math.min(5000, accounts - perPass)],
      ["pass 1 (each account once)", 0, perPass],
      ["pass 2 (the same accounts again)", 0, perPass],
    ];
for (const [pass, offset, amount] of passes) {
  for (const target of targets) {
    const pids = target.servers.flatMap((s) => processTree(s.node.proc.pid!));
    const before = new Map(pids.map((pid) => [pid, cpuSeconds(pid)]));
    let next = 0;
    const pathOf = process.env.PROBE_HOT
      ? () => `/core/bank/v1beta1/balances/${bench.addresses[0]}`
      : () => `/core/bank/v1beta1/balances/${bench.addresses[(offset + next++) % bench.addresses.length]}`;
    const share = target.servers.length;
    const runs = await Promise.all(
      target.servers.map((s) => load(s.node.proc.pid ? s.restUrl : "", pathOf, { amount: amount / share, connections: 16 / share })),
    );
    const total = runs.reduce((sum, run) => sum + run.total, 0);
    const used = pids.map((pid) => [pid, cpuSeconds(pid) - before.get(pid)!] as const);
    const all = used.reduce((sum, [, cpu]) => sum + cpu, 0);
    console.log(
      `${pass.padEnd(34)} ${target.name}: ${((all / total) * 1e6).toFixed(0)} µs/request (${used.map(([pid, cpu]) => `${pid}: ${((cpu / total) * 1e6).toFixed(0)}`).join(", ")}), ${total} requests, load ${os.loadavg()[0]!.toFixed(1)}`,
    );
  }
}
await Promise.all(targets.flatMap((t) => t.servers.map((s) => s.node.stop())));
