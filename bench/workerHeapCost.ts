/**
 * Whether a REST worker's heap bound costs CPU: server CPU per request on the hot and cold balance
 * rows, one-process servers side by side on copies of one home of 30,000 accounts, each with other
 * V8 heap flags (the variants below; two equal ones show the spread between equal servers), all on
 * CPU 1 (the load generator on CPU 0), in interleaved rounds of 3 s each (the first a warm-up);
 * collections counted from --trace-gc. Why ask: V8 scales its old generation's growing factor
 * with the heap's bound (1.3 for small bounds up to 4.0 at its default; heap-controller.cc,
 * MaxGrowingFactor), and a worker runs with `--max-old-space-size` of 256 MB plus the answer
 * cache (restWorkers.ts). Measured 2026-11-27 08:20 (load 1.1–1.5): hot 118 / 121 (equal) /
 * 126 (320 MB) / 124 µs (2048 MB), cold 128 / 128 / 129 / 120 µs, major collections 0–2.4 per
 * 100,000 requests in every variant: within the spread, so the bound stays.
 * Not a results.json row: it prints its table.
 *   npx tsx bench/workerHeapCost.ts [rounds]   (default 5)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { prepareHome } from "./benchHome.js";
import { child, cpuSeconds, load, processTree, scratchDir, serverCommand } from "./benchTools.js";

const VARIANTS: Record<string, string[]> = {
  "one process's (no bound)": [],
  "one process's again (the spread between equal servers)": [],
  "bound 320 MB": ["--max-old-space-size=320"],
  "bound 2048 MB": ["--max-old-space-size=2048"],
};
const BALANCES = "/core/bank/v1beta1/balances/";
const rounds = Number(process.argv[2] ?? 5);
const dir = scratchDir("workerheap");
const bench = await prepareHome(dir, 30_000);
const pin = (pids: number[], cpus: string) => {
  for (const pid of pids) execFileSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
};
pin([process.pid], "0");
const servers = [];
for (const [name, flags] of Object.entries(VARIANTS)) {
  const home = path.join(dir, `copy-${servers.length}`);
  fs.cpSync(bench.home, home, { recursive: true });
  const node = child([
    ...serverCommand(["--trace-gc", ...flags]),
    "start",
    "--home",
    home,
    "--api.address",
    "tcp://127.0.0.1:0",
    "--rpc.laddr",
    "tcp://127.0.0.1:0",
  ]);
  const url = (await node.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
  await node.waitFor(/node RPC:/);
  pin(processTree(node.proc.pid!), "1");
  servers.push({ name, node, url, cold: 0, cpu: { hot: 0, cold: 0 }, n: { hot: 0, cold: 0 }, majors: { hot: 0, cold: 0 }, scavenges: { hot: 0, cold: 0 } });
}
const majors = (text: string) => text.match(/Mark-Compact/g)?.length ?? 0;
const scavenges = (text: string) => text.match(/Scavenge/g)?.length ?? 0;
const hot = BALANCES + bench.addresses[0];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? servers : [...servers].reverse();
  for (const s of order) {
    for (const kind of ["hot", "cold"] as const) {
      const before = cpuSeconds(s.node.proc.pid!);
      const majorsBefore = majors(s.node.output());
      const scavengesBefore = scavenges(s.node.output());
      const start = s.cold;
      const run = await load(s.url, kind === "hot" ? () => hot : (i) => BALANCES + bench.addresses[(start + i) % bench.addresses.length], { duration: 3 });
      if (kind === "cold") s.cold += run.asked;
      if (r === 0) continue; // warm-up round
      s.cpu[kind] += cpuSeconds(s.node.proc.pid!) - before;
      s.n[kind] += run.total;
      s.majors[kind] += majors(s.node.output()) - majorsBefore;
      s.scavenges[kind] += scavenges(s.node.output()) - scavengesBefore;
    }
  }
}
for (const s of servers) {
  const us = (kind: "hot" | "cold") => ((s.cpu[kind] / s.n[kind]) * 1e6).toFixed(0);
  const per100k = (kind: "hot" | "cold") =>
    `${((s.majors[kind] / s.n[kind]) * 1e5).toFixed(1)} major, ${((s.scavenges[kind] / s.n[kind]) * 1e5).toFixed(0)} young collections per 100,000`;
  console.log(`${s.name}: hot ${us("hot")} µs CPU/request (${s.n.hot}; ${per100k("hot")}), cold ${us("cold")} µs (${s.n.cold}; ${per100k("cold")})`);
  await s.node.stop();
}
