/**
 * A CPU profile of each as-shipped row (hot balance, cold balance, params): one `start` per row
 * under `node --cpu-prof` (its REST workers inherit the flag and write their own profiles), the
 * row's load only, then the top functions and packages of every process's profile.
 *
 *   npx tsx bench/profileRows.ts [--accounts N] [--log on|off] [--workers N] [--rows hot,cold,params] [--keep DIR] [--modules]
 *
 * --log on is the shipped setting (api.log-requests "auto" on start); off by default. The
 * profiles are left in --keep DIR (else a scratch folder, removed at exit). --modules runs
 * dist/cli.js's modules instead of the bundle, so that each function is named with its source file.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { setApiSettings } from "../test/helpers/appToml.js";
import { editConfig, prepareHome } from "./benchHome.js";
import { PACKAGE_ROOT } from "../src/util/paths.js";
import { child, FREE_PORTS, load, scratchDir, serverCommand, treeCpuSeconds } from "./benchTools.js";

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const accounts = Number(option("--accounts", "50000"));
const logOn = option("--log", "off") === "on";
const workers = Number(option("--workers", "1"));
const rows = option("--rows", "hot,cold,params").split(",");
const keep = args.includes("--keep") ? path.resolve(option("--keep", "")) : undefined;
const cli = args.includes("--modules") ? path.join(PACKAGE_ROOT, "dist", "cli.js") : undefined;

const BALANCES = "/core/bank/v1beta1/balances/";
const PARAMS = "/core/bank/v1beta1/params";
const LOADED = 60_000;

const dir = scratchDir("profile");
const profiles = keep ?? path.join(dir, "profiles");
fs.mkdirSync(profiles, { recursive: true });
console.log(`preparing a home with ${accounts} accounts...`);
const bench = await prepareHome(dir, accounts);
if (logOn) editConfig(bench.home, "app.toml", 'log-requests = "off"', 'log-requests = "auto"');
if (workers !== 1) setApiSettings(bench.home, { workers });

for (const row of rows) {
  const rowDir = path.join(profiles, `${row}-log-${logOn ? "on" : "off"}-workers-${workers}`);
  fs.rmSync(rowDir, { recursive: true, force: true });
  fs.mkdirSync(rowDir, { recursive: true });
  const server = child([...serverCommand(["--cpu-prof", `--cpu-prof-dir=${rowDir}`], cli), "start", "--home", bench.home, ...FREE_PORTS]);
  const url = (await server.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
  await server.waitFor(/node RPC:/);
  const { addresses } = bench;
  const pathOf =
    row === "hot" ? () => BALANCES + addresses[0]! : row === "params" ? () => PARAMS : (i: number) => BALANCES + addresses[1 + (i % (addresses.length - 1))]!;
  await load(url, pathOf, { amount: 5000 }); // the JIT's warming (and, cold, the first accounts)
  const before = treeCpuSeconds(server.proc.pid!);
  const run = await load(url, (i) => pathOf(5000 + i), { amount: Math.min(LOADED, row === "cold" ? accounts - 5001 : LOADED) });
  const cpuUs = ((treeCpuSeconds(server.proc.pid!) - before) / run.total) * 1e6;
  await server.stop();
  console.log(`\n== ${row}, log ${logOn ? "on" : "off"}, api.workers = ${workers}: ${run.total} requests, ${cpuUs.toFixed(0)} µs CPU a request`);
  for (const file of fs.readdirSync(rowDir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = path.join(rowDir, file);
    for (const extra of [["30"], ["12", "--by-package"]]) {
      console.log(`-- ${file} ${extra.slice(1).join(" ")}`);
      console.log(
        execFileSync(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "profileSummary.ts"), profile, ...extra], { encoding: "utf8" }),
      );
    }
  }
}
