/**
 * What a young-generation size costs (it chose SERVER_NODE_FLAGS): server CPU per request on the
 * hot and cold balance rows, one server per size (semi-spaces of 4, 8, 16 MiB), side by side on
 * copies of one home of 30,000 accounts, in interleaved rounds of 3 s each (the first a warm-up).
 * Not a results.json row: it prints its table.
 *   npx tsx bench/youngGenerationCost.ts [rounds]   (default 4)
 */
import fs from "node:fs";
import path from "node:path";
import { prepareHome } from "./benchHome.js";
import { child, cpuSeconds, load, scratchDir, serverCommand } from "./benchTools.js";

const SIZES = [4, 8, 16];
const BALANCES = "/core/bank/v1beta1/balances/";
const rounds = Number(process.argv[2] ?? 4);
const dir = scratchDir("younggen");
const bench = await prepareHome(dir, 30_000);
const servers = [];
for (const size of SIZES) {
  const home = path.join(dir, `copy-${size}`);
  fs.cpSync(bench.home, home, { recursive: true });
  const flags = [`--min-semi-space-size=${size}`, `--max-semi-space-size=${size}`];
  const node = child([...serverCommand(flags), "start", "--home", home, "--api.address", "tcp://127.0.0.1:0", "--rpc.laddr", "tcp://127.0.0.1:0"]);
  const url = (await node.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
  await node.waitFor(/node RPC:/);
  servers.push({ size, node, url, cold: 0, cpu: { hot: 0, cold: 0 }, n: { hot: 0, cold: 0 } });
}
const hot = BALANCES + bench.addresses[0];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? servers : [...servers].reverse();
  for (const s of order) {
    for (const kind of ["hot", "cold"] as const) {
      const before = cpuSeconds(s.node.proc.pid!);
      const start = s.cold;
      const run = await load(s.url, kind === "hot" ? () => hot : (i) => BALANCES + bench.addresses[(start + i) % bench.addresses.length], { duration: 3 });
      if (kind === "cold") s.cold += run.asked;
      if (r === 0) continue; // warm-up round
      s.cpu[kind] += cpuSeconds(s.node.proc.pid!) - before;
      s.n[kind] += run.total;
    }
  }
}
for (const s of servers) {
  const us = (kind: "hot" | "cold") => ((s.cpu[kind] / s.n[kind]) * 1e6).toFixed(0);
  const rss = fs.readFileSync(`/proc/${s.node.proc.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1];
  console.log(
    `semi ${s.size} MiB: hot ${us("hot")} µs CPU/request (${s.n.hot}), cold ${us("cold")} µs (${s.n.cold}), RSS ${(Number(rss) / 1024).toFixed(0)} MB`,
  );
  await s.node.stop();
}
