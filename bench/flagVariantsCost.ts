/**
 * What node flags cost a server: CPU per request on the hot and cold balance rows, one `start`
 * server per set of flags, side by side on copies of one home of 30,000 accounts, in interleaved
 * rounds of 3 s each (the first a warm-up; the order reversed every other round). Prints a line
 * per variant: CPU per request, RSS at the end and, with `countCollections`, V8's collections
 * per 100,000 requests (from --trace-gc). With `pinned`, the servers run on CPU 1 and the load
 * generator on CPU 0. Used by youngGenerationCost.ts and workerHeapCost.ts (not results.json rows).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { prepareHome } from "./benchHome.js";
import { child, cpuSeconds, FREE_PORTS, load, processTree, scratchDir, serverCommand } from "./benchTools.js";

const BALANCES = "/core/bank/v1beta1/balances/";
type Kind = "hot" | "cold";
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

export async function flagVariantsCost(
  scratch: string,
  variants: Record<string, string[]>,
  rounds: number,
  options: { pinned?: boolean; countCollections?: boolean } = {},
): Promise<void> {
  const dir = scratchDir(scratch);
  const bench = await prepareHome(dir, 30_000);
  const pin = (pids: number[], cpus: string) => {
    for (const pid of pids) execFileSync("taskset", ["-a", "-p", "-c", cpus, String(pid)], { stdio: "ignore" });
  };
  if (options.pinned) pin([process.pid], "0");
  const servers = [];
  for (const [name, flags] of Object.entries(variants)) {
    const home = path.join(dir, `copy-${servers.length}`);
    fs.cpSync(bench.home, home, { recursive: true });
    const node = child([...serverCommand([...(options.countCollections ? ["--trace-gc"] : []), ...flags]), "start", "--home", home, ...FREE_PORTS]);
    const url = (await node.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
    await node.waitFor(/node RPC:/);
    if (options.pinned) pin(processTree(node.proc.pid!), "1");
    const zero = () => ({ hot: 0, cold: 0 });
    servers.push({ name, node, url, cold: 0, cpu: zero(), n: zero(), majors: zero(), scavenges: zero() });
  }
  const hot = BALANCES + bench.addresses[0];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? servers : [...servers].reverse();
    for (const s of order) {
      for (const kind of ["hot", "cold"] as const) {
        const before = { cpu: cpuSeconds(s.node.proc.pid!), output: s.node.output().length };
        const start = s.cold;
        const run = await load(s.url, kind === "hot" ? () => hot : (i) => BALANCES + bench.addresses[(start + i) % bench.addresses.length], { duration: 3 });
        if (kind === "cold") s.cold += run.asked;
        if (r === 0) continue; // warm-up round
        s.cpu[kind] += cpuSeconds(s.node.proc.pid!) - before.cpu;
        s.n[kind] += run.total;
        const traced = s.node.output().slice(before.output);
        s.majors[kind] += count(traced, /Mark-Compact/g);
        s.scavenges[kind] += count(traced, /Scavenge/g);
      }
    }
  }
  for (const s of servers) {
    const us = (kind: Kind) => ((s.cpu[kind] / s.n[kind]) * 1e6).toFixed(0);
    const per100k = (kind: Kind) => (value: number) => ((value / s.n[kind]) * 1e5).toFixed(1);
    const collections = (kind: Kind) =>
      options.countCollections ? `; ${per100k(kind)(s.majors[kind])} major, ${per100k(kind)(s.scavenges[kind])} young collections per 100,000` : "";
    const rss = fs.readFileSync(`/proc/${s.node.proc.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1];
    console.log(
      `${s.name}: hot ${us("hot")} µs CPU/request (${s.n.hot}${collections("hot")}), cold ${us("cold")} µs (${s.n.cold}${collections("cold")}), RSS ${(Number(rss) / 1024).toFixed(0)} MB`,
    );
    await s.node.stop();
  }
}
