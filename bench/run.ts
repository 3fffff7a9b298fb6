/**
 * Every benchmark (npm run bench; not part of npm test): each compares a
 * subject against a baseline measured in the same run, prints subject,
 * baseline, ratio and p50/p99, and the run is written to bench/results.json.
 * The server under test is the compiled build (npm run build first).
 *
 *   npm run bench [-- rest gateway broadcast compression workers startup flood genesis search devchain fork]   (a subset by name)
 *   npm run bench -- rest:cold rest:table                        (parts of rest: hot, cold, params, table, telemetry)
 *   npm run bench -- startup:sizes                               (only start and idle RSS at 10 and 100,000 accounts)
 *   npm run bench -- startup:sizes --home-1m DIR                 (and at 1,000,000: DIR a home the genesis bench imported, reused)
 *   npm run bench -- startup:sizes --against DIR                 (and each home's start alternated with the build in DIR, e.g. the base commit)
 *   npm run bench -- devchain                                    (empty blocks and revert, in process)
 *   npm run bench -- txlog                                       (the node's per-transaction log lines on against off, in process)
 *   npm run bench -- multinode                                   (a gateway in front of three nodes against one; leaving a killed node)
 *   npm run bench -- soak [--minutes N]                          (the soak alone: not in the default run, 30 min)
 *   npm run bench -- shipped [shipped:workers]                    (start and gateway as npm start configures them, against bare Koa; with api.workers = 2 too)
 *   npm run bench -- workers:starts                              (the workers against one process and the control, pooled over 4 starts; ~5 min)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readDevAccounts } from "../src/commands/home.js";
import { prepareHome } from "./benchHome.js";
import { allResults, child, fmtMs, machine, record, scratchDir, type BenchResult } from "./benchTools.js";
import { broadcastBenchmark } from "./broadcast.bench.js";
import { connectionFloodBenchmark } from "./connectionFlood.bench.js";
import { gatewayBenchmark } from "./gatewayLatency.bench.js";
import { REST_PARTS, restBenchmarks, type RestPart } from "./restThroughput.bench.js";
import { recordIdleRss, recordStartTime, startupAtSizeRows, startupMemoryBenchmarks } from "./startupMemory.bench.js";
import { existingHomeStart } from "./existingHomeStart.js";
import { buildComparison } from "./buildComparison.js";
import { eventSearchBenchmarks } from "./eventSearch.bench.js";
import { soakBenchmark, soakMinutes } from "./soak.bench.js";
import { compressionBenchmark } from "./compression.bench.js";
import { devChainBenchmarks } from "./devChain.bench.js";
import { workersBenchmark } from "./workers.bench.js";
import { recordProbe, workersProbe, type ProbeOptions } from "./workersProbe.js";
import { forkBenchmark } from "./fork.bench.js";
import { asShippedBenchmarks } from "./asShipped.bench.js";
import { multiNodeBenchmark } from "./multiNodeGateway.bench.js";
import { txLogCostBenchmark } from "./txLogCost.bench.js";

const GENESIS_TIME_LIMIT_MS = 30 * 60_000;
const ALL = [
  "shipped",
  "txlog",
  "rest",
  "gateway",
  "broadcast",
  "compression",
  "workers",
  "startup",
  "flood",
  "genesis",
  "search",
  "devchain",
  "fork",
  "multinode",
];
const args = process.argv.slice(2);
const VALUED_FLAGS = ["--minutes", "--home-1m", "--against"];
const names = args.filter((arg, i) => !VALUED_FLAGS.includes(arg) && !VALUED_FLAGS.includes(args[i - 1]!));
const millionHome = args.includes("--home-1m") ? args[args.indexOf("--home-1m") + 1] : undefined;
const otherBuild = args.includes("--against") ? args[args.indexOf("--against") + 1] : undefined;
const chosen = names.length > 0 ? names : ALL;
const restParts = new Set<RestPart>(chosen.includes("rest") ? REST_PARTS : REST_PARTS.filter((part) => chosen.includes(`rest:${part}`)));
const runs = (name: string) => chosen.includes(name) || (name === "rest" && restParts.size > 0) || (name === "shipped" && chosen.includes("shipped:workers"));

const startedAt = new Date();
const machineBefore = machine();
console.log(`chain-rest benchmarks on ${machineBefore}`);
const dir = scratchDir("run");

if (runs("shipped") || runs("rest") || runs("gateway") || runs("broadcast")) {
  console.log("\npreparing a home with 100,000 funded accounts and 50 keyed ones...");
  const bench = await prepareHome(dir, 100_000);
  if (runs("shipped")) await asShippedBenchmarks(bench, dir, chosen.includes("shipped:workers") ? [2] : []);
  if (runs("rest")) await restBenchmarks(bench, dir, restParts);
  if (runs("gateway")) await gatewayBenchmark(bench, dir);
  if (runs("broadcast")) await broadcastBenchmark(bench); // last on this home: it changes the state
}

if (runs("txlog")) await txLogCostBenchmark();
if (runs("multinode")) await multiNodeBenchmark(dir);
if (runs("compression")) await compressionBenchmark(await prepareHome(dir, 200, 10, 2));
if (runs("workers")) await workersBenchmark(await prepareHome(dir, 50_000, 10, 2), dir); // the cold row asks each account once: 15,000 + 6 slices
if (chosen.includes("workers:starts")) {
  // the workers' coordination over several starts of each target (one start cannot settle a 10 % target)
  const bench = await prepareHome(dir, 50_000, 10, 2);
  for (const [kind, hot] of [
    ["cold balance (another account each time: a node read)", false],
    ["hot balance (the answer cache)", true],
  ] as const) {
    const options: ProbeOptions = { accounts: 50_000, perPass: 15_000, hot, instances: 4, warmUp: 15_000, slices: 0 };
    recordProbe(kind, await workersProbe(bench, dir, options), options, `load average ${os.loadavg()[0]!.toFixed(1)}`);
  }
}

if (runs("soak")) {
  const minutes = soakMinutes(args);
  await soakBenchmark(await prepareHome(dir, 0, 20), minutes);
}

if (runs("startup") || chosen.includes("startup:sizes")) {
  const small = await prepareHome(dir, 0, 10, 2);
  const smallStart = runs("startup")
    ? await startupMemoryBenchmarks(small, readDevAccounts(small.home)!.accounts[0]!.address)
    : await existingHomeStart(small.home);
  if (!runs("startup")) {
    recordStartTime(smallStart);
    recordIdleRss(smallStart);
  }
  console.log("\npreparing a home with 100,000 funded accounts and 10 keyed ones...");
  const large = await prepareHome(dir, 100_000, 10, 2);
  startupAtSizeRows(100_000, await existingHomeStart(large.home), smallStart);
  // a home of 1,000,000 accounts takes minutes to import: one imported before (by the genesis bench) is started again
  if (millionHome) startupAtSizeRows(1_000_000, await existingHomeStart(millionHome), smallStart);
  if (otherBuild) {
    console.log(`\nthis build's start against the build in ${otherBuild}, alternated...`);
    for (const [home, accounts] of [[small.home, 10], [large.home, 100_000], ...(millionHome ? [[millionHome, 1_000_000] as const] : [])] as const) {
      await buildComparison(home, accounts, otherBuild);
    }
  }
}

if (runs("flood")) await connectionFloodBenchmark(dir);
if (runs("search")) await eventSearchBenchmarks(dir);
if (runs("devchain")) await devChainBenchmarks();
if (runs("fork")) await forkBenchmark(dir);

if (runs("genesis")) {
  console.log("\n1,000,000-account genesis against 1,000 (its own process; import bounded to 30 min)...");
  const proc = child(["--max-old-space-size=16384", "--import", "tsx", path.join(import.meta.dirname, "largeGenesis.bench.ts")]);
  const timer = setTimeout(() => proc.proc.kill("SIGKILL"), GENESIS_TIME_LIMIT_MS);
  const line = await proc.waitFor(/^\{.*\}$/m, GENESIS_TIME_LIMIT_MS).finally(() => clearTimeout(timer));
  await proc.stop();
  const r = JSON.parse(line[0]) as {
    large: number;
    small: number;
    importMs: number;
    importCpuMs: number;
    importLoad: [number, number];
    longestGapMs: number;
    smallStart: { startMs: number; idleRssMb: number };
    largeStart: { startMs: number; idleRssMb: number };
    smallImportMs: number;
    dataBytes: number;
    firstPage: { p50: number; p99: number };
    deepPage: { p50: number; p99: number };
  };
  record({
    subject: `page of 100 accounts by pagination.key deep in ${r.large.toLocaleString("en")} accounts (p50)`,
    baseline: `first page of ${r.small.toLocaleString("en")} accounts (p50)`,
    ratio: r.firstPage.p50 / r.deepPage.p50,
    target: "≥ 0.5x",
    subjectValue: fmtMs(r.deepPage.p50),
    baselineValue: fmtMs(r.firstPage.p50),
    p50: r.deepPage.p50,
    p99: r.deepPage.p99,
    note: `ratio = baseline time / subject time; import of ${r.large.toLocaleString("en")} accounts ${(r.importMs / 1000).toFixed(0)} s (${r.small.toLocaleString("en")}: ${(r.smallImportMs / 1000).toFixed(1)} s), {home}/data ${(r.dataBytes / 2 ** 20).toFixed(0)} MiB`,
  });
  const n = r.large.toLocaleString("en");
  record({
    subject: `genesis import of ${n} accounts (first start)`,
    baseline: "target",
    ratio: 60_000 / r.importMs,
    target: "≥ 1.0x (≤ 60 s)",
    subjectValue: `${(r.importMs / 1000).toFixed(1)} s`,
    baselineValue: "60 s",
    note: `ratio = target / time; CPU time (user+sys, all threads) ${(r.importCpuMs / 1000).toFixed(1)} s; load average ${r.importLoad.map((l) => l.toFixed(1)).join(" → ")} on ${os.cpus().length} cores`,
  });
  record({
    subject: `longest wait between progress lines, import of ${n} accounts`,
    baseline: "target",
    ratio: 2000 / r.longestGapMs,
    target: "≥ 1.0x (≤ 2 s)",
    subjectValue: fmtMs(r.longestGapMs),
    baselineValue: "2000 ms",
    note: "ratio = target / gap",
  });
  startupAtSizeRows(r.large, r.largeStart, r.smallStart, r.small);
}

const file = path.join(import.meta.dirname, "results.json");
const results = [...allResults(), ...earlierResults(file, allResults())];
fs.writeFileSync(file, `${JSON.stringify({ startedAt: startedAt.toISOString(), machine: machineBefore, machineAfter: machine(), results }, null, 2)}\n`);
console.log(`\n${markdownTable(results)}\n\nwritten to ${path.relative(process.cwd(), file)}`);

function markdownTable(rows: BenchResult[]): string {
  const lines = ["| subject | baseline | ratio | target | p50 / p99 |", "|---|---|---|---|---|"];
  for (const r of rows) {
    const lat = r.p50 === undefined ? "" : `${fmtMs(r.p50)} / ${fmtMs(r.p99!)}`;
    const run = r.from ? ` (run of ${r.from.slice(0, 10)})` : "";
    lines.push(`| ${r.subject}: ${r.subjectValue}${run} | ${r.baseline}: ${r.baselineValue} | ${r.ratio.toFixed(2)}x | ${r.target} | ${lat} |`);
  }
  return lines.join("\n");
}

/** The rows of the previous results.json that this run did not measure (a subset was chosen), each naming the run it is from. */
function earlierResults(file: string, fresh: BenchResult[]): BenchResult[] {
  if (!fs.existsSync(file)) return [];
  const earlier = JSON.parse(fs.readFileSync(file, "utf8")) as { startedAt: string; results: BenchResult[] };
  const measured = new Set(fresh.map((r) => r.subject));
  return earlier.results.filter((r) => !measured.has(r.subject)).map((r) => ({ ...r, from: r.from ?? earlier.startedAt }));
}
