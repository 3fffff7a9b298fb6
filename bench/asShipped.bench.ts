/**
 * The servers as `npm start` and `chain-rest gateway --node` run them, untouched: the
 * configuration init writes (api.log-requests "auto", so one readable text line per request on
 * `start`; api.workers 1; telemetry off), against a bare Koa app serving the same bytes, in the
 * same turns; and the same home with the request log off, so the log's own cost is a row too.
 *
 * Every server is measured by its answers per second and by its CPU per request (user + system
 * time of every thread of the process and of its REST workers, /proc), in alternating turns
 * (the order flipping each turn) so that the load of the moment falls on all sides alike. The
 * servers' stdout goes to a file, as a service's goes to its journal: a line is written by the
 * server, not read by the load generator's process.
 *
 * `workers` adds sides of the log-off home with api.workers = N (the default's choice, and
 * the CPU per request of the workers against bare Koa), and the same with the simpler state
 * design the workers' replica is weighed against (CHAIN_REST_WORKERS_REPLICA=off: every read
 * a message to the node's process, as a fork's workers read).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setApiSettings } from "../test/helpers/appToml.js";
import { editConfig, type BenchHome } from "./benchHome.js";
import { FREE_PORTS, get, load, processTree, profileFlags, record, serverCommand, startBareKoa, treeCpuSeconds, type Load } from "./benchTools.js";

const BALANCES = "/core/bank/v1beta1/balances/";
const PARAMS = "/core/bank/v1beta1/params";
const TURNS = Number(process.env.BENCH_TURNS ?? 6);
/**
 * BENCH_PIN=1: every server process (and bare Koa) on CPU 1, the load generator on CPU 0, so
 * that the sides meet the same core and the same neighbour (the scheduler otherwise places each
 * process by chance, which moves one side's CPU per request by more than the log's cost). The
 * REST workers then share CPU 1: read their throughput rows from an unpinned run.
 */
const PIN = process.env.BENCH_PIN === "1";
const TURN_SECONDS = 1;
/** Cold requests per side and turn (each another account, none asked before on that server). */
const COLD_PER_TURN = 6000;
/** Unmeasured requests each server answers before its first measured turn (the JIT's warming). */
const WARM_UP = 5000;

interface Server {
  name: string;
  url: string;
  pid: number;
  logFile?: string;
  stop(): Promise<void>;
}

interface Measured {
  rps: number;
  /** CPU per request, µs (the process and its workers). */
  cpuUs: number;
  p50: number;
  p99: number;
  total: number;
}

/** `node [flags] bin/chain-rest.js ARGS` with its stdout and stderr written to `logFile`; resolves once it serves REST. */
async function spawnServer(name: string, args: string[], logFile: string, env: Record<string, string> = {}): Promise<Server> {
  const out = fs.openSync(logFile, "w");
  const proc = spawn(process.execPath, [...serverCommand(profileFlags()), ...args], { stdio: ["ignore", out, out], env: { ...process.env, ...env } });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  const until = Date.now() + 600_000;
  for (;;) {
    const head = fs.readFileSync(logFile, "utf8").slice(0, 1 << 20);
    const url = head.match(/REST server: (http:\/\/\S+)/)?.[1];
    if (url && /node RPC:/.test(head)) {
      return {
        name,
        url,
        pid: proc.pid!,
        logFile,
        async stop() {
          if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
          await exited;
        },
      };
    }
    if (proc.exitCode !== null || Date.now() > until) throw new Error(`${name} did not start:\n${head}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Alternating turns over `servers`, each asked `pathOf(server, i)`: answers per second and CPU per request of each. */
async function measure(servers: Server[], pathOf: (s: number, i: number) => string, amount?: number): Promise<Measured[]> {
  const asked = servers.map(() => 0);
  const parts: Array<Array<Load & { cpu: number }>> = servers.map(() => []);
  for (let turn = 0; turn < TURNS; turn++) {
    const order = turn % 2 === 0 ? [...servers.keys()] : [...servers.keys()].reverse();
    for (const s of order) {
      const server = servers[s]!;
      const before = treeCpuSeconds(server.pid);
      const run = await load(server.url, (i) => pathOf(s, asked[s]! + i), amount ? { amount } : { duration: TURN_SECONDS });
      parts[s]!.push({ ...run, cpu: treeCpuSeconds(server.pid) - before });
      asked[s]! += run.asked;
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return parts.map((runs) => {
    const total = runs.reduce((n, r) => n + r.total, 0);
    return {
      rps: total / runs.reduce((n, r) => n + r.seconds, 0),
      cpuUs: (runs.reduce((n, r) => n + r.cpu, 0) / total) * 1e6,
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      total,
    };
  });
}

const rate = (m: Measured) => `${m.rps.toFixed(0)} req/s, ${m.cpuUs.toFixed(0)} µs CPU/request`;
const loadNote = () =>
  `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores${PIN ? ", servers pinned to CPU 1, load generator to CPU 0" : ""}`;

/** With BENCH_PIN=1, every thread of `pid` and of its child processes on `cpu`. */
function pin(pid: number, cpu: number): void {
  if (!PIN) return;
  for (const each of processTree(pid)) execFileSync("taskset", ["-a", "-p", "-c", String(cpu), String(each)], { stdio: "ignore" });
}

function copyHome(from: string, to: string, edit: (home: string) => void): string {
  fs.cpSync(from, to, { recursive: true });
  edit(to);
  return to;
}

export async function asShippedBenchmarks(bench: BenchHome, dir: string, workers: number[] = []): Promise<void> {
  console.log(`\nas shipped: the configuration init writes, against bare Koa and against the request log off (${TURNS} alternating turns)`);
  // bench homes are written with the request log off; the shipped copy gets init's setting back
  const shippedHome = copyHome(bench.home, path.join(dir, "home-shipped"), (home) =>
    editConfig(home, "app.toml", 'log-requests = "off"', 'log-requests = "auto"'),
  );
  if (!fs.readFileSync(path.join(shippedHome, "config", "app.toml"), "utf8").includes('log-requests = "auto"')) throw new Error("not as shipped");
  const offHome = copyHome(bench.home, path.join(dir, "home-log-off"), () => {});
  const workerHomes = workers.map((n) => copyHome(bench.home, path.join(dir, `home-workers-${n}`), (home) => setApiSettings(home, { workers: n })));
  const channelHomes = workers.map((n) => copyHome(bench.home, path.join(dir, `home-workers-${n}-channel`), (home) => setApiSettings(home, { workers: n })));
  const servers: Server[] = [];
  try {
    const startArgs = (home: string) => ["start", "--home", home, ...FREE_PORTS];
    servers.push(await spawnServer("as shipped", startArgs(shippedHome), path.join(dir, "shipped.log")));
    servers.push(await spawnServer("request log off", startArgs(offHome), path.join(dir, "off.log")));
    for (const [i, n] of workers.entries()) {
      servers.push(await spawnServer(`log off, api.workers = ${n}`, startArgs(workerHomes[i]!), path.join(dir, `w${n}.log`)));
      // the simpler design the workers' state is weighed against: no replica, every read a message to the node's process
      servers.push(
        await spawnServer(`log off, api.workers = ${n}, every read over the channel`, startArgs(channelHomes[i]!), path.join(dir, `w${n}-channel.log`), {
          CHAIN_REST_WORKERS_REPLICA: "off",
        }),
      );
    }
    const { addresses } = bench;
    const hot = BALANCES + addresses[0]!;
    const bodies = new Map<string, string>();
    const answer = async (route: string) => {
      const r = await get(servers[1]!.url + route);
      if (r.status !== 200) throw new Error(`${route}: ${r.status} ${r.body}`);
      return r.body;
    };
    bodies.set(PARAMS, await answer(PARAMS));
    bodies.set(hot, await answer(hot));
    const coldBody = await answer(BALANCES + addresses[1]!); // every generated account holds the same coins
    for (const address of addresses.slice(2)) bodies.set(BALANCES + address, coldBody);
    const bare = await startBareKoa(bodies, dir);
    pin(process.pid, 0);
    for (const server of servers) pin(server.pid, 1);
    pin(bare.server.proc.pid!, 1);
    const all = [...servers, { name: "bare Koa", url: bare.url, pid: bare.server.proc.pid!, stop: () => bare.server.stop() }];
    try {
      const cold = (i: number) => BALANCES + addresses[2 + (i % (addresses.length - 2))]!;
      for (const server of all) {
        await load(server.url, () => hot, { amount: WARM_UP });
        await load(server.url, () => PARAMS, { amount: WARM_UP });
        await load(server.url, (i) => cold(i), { amount: WARM_UP }); // the first accounts, never measured
      }
      const rows = [
        { row: "hot balance", pathOf: () => hot, target: 1.4 },
        { row: "cold balance", pathOf: (_s: number, i: number) => cold(WARM_UP + i), amount: COLD_PER_TURN, target: 1.4 },
        { row: "params", pathOf: () => PARAMS, target: 1.15 },
      ];
      for (const { row, pathOf, amount, target } of rows) {
        const measured = await measure(all, pathOf, amount);
        recordRows(row, all, measured, target);
      }
      recordLogShape(servers[0]!);
    } finally {
      await bare.server.stop();
    }
    await gatewayAsShipped(servers[1]!, bodies, hot, dir);
    if (workers.length > 0) await idleTreeRss(servers);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    for (const home of [shippedHome, offHome, ...workerHomes, ...channelHomes]) fs.rmSync(home, { recursive: true, force: true });
  }
}

/** One row: `subject` side against `baseline` side, with the subject's latencies. */
function compare(subject: string, baseline: string, target: string, sides: [Measured, Measured], ratio: number, note: string): void {
  const [a, b] = sides;
  record({ subject, baseline, ratio, target, subjectValue: rate(a), baselineValue: rate(b), p50: a.p50, p99: a.p99, note: `${note}; ${loadNote()}` });
}

function recordRows(row: string, servers: Array<{ name: string }>, measured: Measured[], cpuTarget: number): void {
  const koa = measured.at(-1)!;
  const [shipped, off] = measured as [Measured, Measured];
  compare(
    `start as shipped (npm start's configuration, untouched), ${row}`,
    "bare Koa, same bytes",
    "none: what a new user measures first",
    [shipped, koa],
    shipped.rps / koa.rps,
    `CPU per request ${(shipped.cpuUs / koa.cpuUs).toFixed(2)}x bare Koa's`,
  );
  compare(
    `the request log's cost (api.log-requests "auto" on start, text), ${row}`,
    'the same home with log-requests = "off"',
    "≥ 0.95x (≤ 5 % of throughput)",
    [shipped, off],
    shipped.rps / off.rps,
    `CPU per request: off / on = ${(off.cpuUs / shipped.cpuUs).toFixed(2)}x`,
  );
  for (const [i, server] of servers.entries()) {
    if (i === 0 || i === servers.length - 1) continue;
    const m = measured[i]!;
    compare(
      `server CPU per request, ${server.name} (api.workers = ${/workers = (\d+)/.exec(server.name)?.[1] ?? 1}), ${row}`,
      "bare Koa's CPU per request, same turns",
      `≥ ${(1 / cpuTarget).toFixed(2)}x (CPU ≤ ${cpuTarget}x bare Koa's)`,
      [m, koa],
      koa.cpuUs / m.cpuUs,
      `ratio = bare Koa's CPU / the server's; CPU multiple ${(m.cpuUs / koa.cpuUs).toFixed(2)}x`,
    );
    if (server.name.includes("over the channel")) {
      const replica = measured[i - 1]!;
      compare(
        `the workers' replica (${servers[i - 1]!.name}), ${row}: server CPU per request`,
        "the simpler design: no replica, every read a message to the node's process",
        "> 1x (else the simpler design serves as well)",
        [replica, m],
        m.cpuUs / replica.cpuUs,
        `ratio = the channel's CPU / the replica's; throughput replica / channel ${(replica.rps / m.rps).toFixed(2)}x`,
      );
    } else if (i > 1) {
      compare(
        `${server.name} against api.workers = 1 (the default's choice), ${row}: throughput`,
        "api.workers = 1, request log off, same turns",
        '> 1x for "auto" to be the better default',
        [m, off],
        m.rps / off.rps,
        `CPU per request ${(m.cpuUs / off.cpuUs).toFixed(2)}x one process's; p99 ${m.p99.toFixed(1)} ms against ${off.p99.toFixed(1)} ms`,
      );
    }
  }
}

/** That the shipped server did write its lines (one per request), so the rows above measured the log. */
function recordLogShape(server: Server): void {
  const size = fs.statSync(server.logFile!).size;
  const head = fs.readFileSync(server.logFile!, "utf8").slice(0, 1 << 16);
  if (!/INFO: request \{/.test(head)) throw new Error(`the shipped server wrote no request lines:\n${head.slice(0, 2000)}`);
  console.log(`  (the shipped server's log: ${(size / 2 ** 20).toFixed(0)} MiB of text lines)`);
}

/** `chain-rest gateway --node` with the configuration init writes, in front of the log-off node, against bare Koa. */
async function gatewayAsShipped(node: Server, bodies: Map<string, string>, hot: string, dir: string): Promise<void> {
  const rpc = fs.readFileSync(node.logFile!, "utf8").match(/node RPC:\s+(http:\/\/\S+)/)![1]!;
  const home = path.join(dir, "home-gateway");
  const gateway = await spawnServer(
    "gateway as shipped",
    ["gateway", "--home", home, "--node", rpc, "--api.address", "tcp://127.0.0.1:0"],
    path.join(dir, "gateway.log"),
  );
  const bare = await startBareKoa(new Map([...bodies].filter(([route]) => route === hot || route === PARAMS)), dir);
  pin(gateway.pid, 1);
  pin(bare.server.proc.pid!, 1);
  const sides = [gateway, { name: "bare Koa", url: bare.url, pid: bare.server.proc.pid!, stop: () => bare.server.stop() }];
  try {
    for (const side of sides) for (const route of [hot, PARAMS]) await load(side.url, () => route, { amount: WARM_UP });
    for (const [row, route] of [
      ["hot balance", hot],
      ["params", PARAMS],
    ] as const) {
      const [subject, koa] = (await measure(sides, () => route)) as [Measured, Measured];
      record({
        subject: `gateway --node as shipped (init's configuration, untouched), ${row}`,
        baseline: "bare Koa, same bytes",
        ratio: subject.rps / koa.rps,
        target: "none: what a new user measures first",
        subjectValue: rate(subject),
        baselineValue: rate(koa),
        p50: subject.p50,
        p99: subject.p99,
        note: `CPU per request ${(subject.cpuUs / koa.cpuUs).toFixed(2)}x bare Koa's; ${loadNote()}`,
      });
    }
  } finally {
    await bare.server.stop();
    await gateway.stop();
  }
}

/** Resident memory of every process of each server (the main process and its REST workers), after 3 s idle. */
async function idleTreeRss(servers: Server[]): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3000));
  for (const server of servers) {
    const pids = processTree(server.pid);
    const mb = pids.reduce((sum, pid) => sum + Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024, 0);
    console.log(`  ${server.name}: ${pids.length} processes, ${mb.toFixed(0)} MB RSS together, idle after the turns`);
  }
}
