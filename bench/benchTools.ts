import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { PACKAGE_ROOT } from "../src/util/paths.js";
import { missingNodeFlags, SERVER_NODE_FLAGS } from "../src/util/nodeFlags.js";

/** A scratch folder for one benchmark run, removed at exit. */
export function scratchDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `chain-rest-bench-${name}-`));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** p50 and p99 of `runs` sequential calls of `fn`, in milliseconds. */
export async function timings(runs: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

/**
 * p50 and p99 of `runs` sequential calls of each of `fns`, taken in turns of
 * `block` calls (a block of the first, of the second, …, again), so that a
 * change of the machine's load during the run falls on all of them alike.
 */
export async function interleavedTimings<F extends Array<(i: number) => Promise<unknown>>>(
  runs: number,
  block: number,
  fns: [...F],
): Promise<{ [K in keyof F]: { p50: number; p99: number } }> {
  const times: number[][] = fns.map(() => []);
  for (let start = 0; start < runs; start += block) {
    for (const [f, fn] of fns.entries()) {
      for (let i = start; i < Math.min(start + block, runs); i++) {
        const begin = performance.now();
        await fn(i);
        times[f]!.push(performance.now() - begin);
      }
    }
  }
  return times.map((t) => {
    t.sort((a, b) => a - b);
    return { p50: t[Math.floor(t.length / 2)]!, p99: t[Math.floor(t.length * 0.99)]! };
  }) as { [K in keyof F]: { p50: number; p99: number } };
}

/** One line of the results: the subject measured against a baseline in the same run. */
export interface BenchResult {
  subject: string;
  baseline: string;
  /** subject / baseline, oriented so that higher is better (see `better`). */
  ratio: number;
  target: string;
  subjectValue: string;
  baselineValue: string;
  /** Latency percentiles of the subject, in milliseconds, where it was timed per request. */
  p50?: number;
  p99?: number;
  note?: string;
  /** Set on a row kept from an earlier run (a subset was run since): when that run started. */
  from?: string;
}

const results: BenchResult[] = [];

export function record(result: BenchResult): void {
  results.push(result);
  const lat = result.p50 === undefined ? "" : `  p50 ${fmtMs(result.p50)} p99 ${fmtMs(result.p99!)}`;
  console.log(
    `  ${result.subject}: ${result.subjectValue} vs ${result.baseline}: ${result.baselineValue} = ${result.ratio.toFixed(2)}x (target ${result.target})${lat}${result.note ? `  [${result.note}]` : ""}`,
  );
}

export function allResults(): BenchResult[] {
  return results;
}

export const fmtMs = (ms: number) => (ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`);

export const CONNECTIONS = 20;
export const DURATION_S = 5;
/** Turns of an interleaved comparison (interleavedLoad). */
export const SLICES = 6;

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  /** Paths asked (answered or in flight when the run stopped). */
  asked: number;
  seconds: number;
}

/** autocannon against `base`: `path(i)` gives the i-th request's path (and optional headers). */
export async function load(
  base: string,
  pathOf: (i: number) => string,
  options: { duration?: number; amount?: number; connections?: number; headers?: Record<string, string> } = {},
): Promise<Load> {
  let i = 0;
  const result = await autocannon({
    url: base,
    connections: options.connections ?? CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? DURATION_S }),
    // autocannon sees that a run is over at its next sample: every 10 ms, not every second (a run of
    // a fixed amount would otherwise count the rest of its last second)
    sampleInt: 10,
    headers: options.headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: pathOf(i++) }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${base}${pathOf(0)}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const total = result.requests.total;
  return { rps: total / result.duration, p50: result.latency.p50, p99: result.latency.p99, total, asked: i, seconds: result.duration };
}

/** One side of an interleaved comparison: a server and the paths to ask it. */
export interface LoadTarget {
  url: string;
  pathOf: (i: number) => string;
  headers?: Record<string, string>;
  /** Requests per slice, instead of the slice's time (a side that must never ask a path twice). */
  amount?: number;
}

/**
 * Subject and baseline measured in turns: `slices` short autocannon runs of
 * each, alternating, `seconds` in all per target. A machine whose load moves
 * during the run (other processes, CPU frequency) then moves both sides alike;
 * the order flips every slice (A B B A …).
 * Each target's paths go on from where its previous slice stopped (a cold
 * path never repeats). p50/p99: the median over the slices of each slice's.
 */
export async function interleavedLoad(targets: LoadTarget[], { slices = SLICES, seconds = DURATION_S } = {}): Promise<Load[]> {
  const counters = targets.map(() => 0);
  const runs: Load[][] = targets.map(() => []);
  for (let slice = 0; slice < slices; slice++) {
    // A B, then B A: neither side is always the one that follows the other (or a server's start)
    const order = slice % 2 === 0 ? [...targets.entries()] : [...targets.entries()].reverse();
    for (const [t, target] of order) {
      const size = target.amount ? { amount: target.amount } : { duration: seconds / slices };
      runs[t]!.push(await load(target.url, (i) => target.pathOf(counters[t]! + i), { ...size, headers: target.headers }));
      counters[t]! += runs[t]!.at(-1)!.asked;
    }
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const sum = (parts: Load[], of: (p: Load) => number) => parts.reduce((n, p) => n + of(p), 0);
  return runs.map((parts) => ({
    rps: sum(parts, (p) => p.total) / sum(parts, (p) => p.seconds),
    p50: median(parts.map((p) => p.p50)),
    p99: median(parts.map((p) => p.p99)),
    total: sum(parts, (p) => p.total),
    asked: sum(parts, (p) => p.asked),
    seconds: sum(parts, (p) => p.seconds),
  }));
}

export const CLI = path.join(PACKAGE_ROOT, "bin", "chain-rest.js");

export interface Child {
  proc: ChildProcess;
  output: () => string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

/** A child process (node with `args`), its output collected. */
export function child(args: string[], env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let text = "";
  proc.stdout.on("data", (d: Buffer) => (text += d.toString()));
  proc.stderr.on("data", (d: Buffer) => (text += d.toString()));
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  return {
    proc,
    output: () => text,
    async waitFor(pattern, timeoutMs = 120_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const match = text.match(pattern);
        if (match) return match;
        if (proc.exitCode !== null || Date.now() > until) throw new Error(`no ${pattern} from ${args.join(" ")}:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      await exited;
    },
  };
}

/** With BENCH_PROFILE_DIR set, the node flags that write a CPU profile of the process there. */
export function profileFlags(): string[] {
  return process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
}

/**
 * `node …flags bin/chain-rest.js` as `npm start` and the bin's shebang run it: the servers' young
 * generation flags on the command line, so the server is the process spawned (no relaunch, whose
 * launcher would be the pid measured). BENCH_NODE_FLAGS (V8 flags Node refuses in NODE_OPTIONS,
 * e.g. "--min-semi-space-size=4 --max-semi-space-size=4") and `extra` come first and replace them.
 * `cli`: another build's bin/chain-rest.js (bench/buildComparison.ts).
 */
export function serverCommand(extra: string[] = [], cli = CLI): string[] {
  const flags = [...(process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []), ...extra];
  return [...flags, ...missingNodeFlags(SERVER_NODE_FLAGS, flags), cli];
}

/** `start`'s REST and RPC addresses: free loopback ports. */
export const FREE_PORTS = ["--api.address", "tcp://127.0.0.1:0", "--rpc.laddr", "tcp://127.0.0.1:0"];

/** `chain-rest start` (the compiled build) on free loopback ports; with BENCH_PROFILE_DIR set, under `node --cpu-prof`. */
export async function startChainRest(
  home: string,
  timeoutMs?: number,
  env: Record<string, string> = {},
): Promise<{ node: Child; restUrl: string; rpcUrl: string }> {
  const node = child([...serverCommand(profileFlags()), "start", "--home", home, ...FREE_PORTS], env);
  const rpcUrl = (await node.waitFor(/node RPC:\s+(http:\/\/\S+)/, timeoutMs))[1]!;
  const restUrl = node.output().match(/REST server: (http:\/\/\S+)/)![1]!;
  return { node, restUrl, rpcUrl };
}

/** A bare Koa app in its own process answering `bodies` (path → bytes) from memory: the baseline of the REST benchmarks. */
export async function startBareKoa(bodies: Map<string, string>, dir: string): Promise<{ server: Child; url: string }> {
  const file = path.join(dir, `bodies-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify([...bodies]));
  const server = child(["--import", "tsx", path.join(PACKAGE_ROOT, "bench", "bareKoa.ts"), file]);
  const url = (await server.waitFor(/listening (http:\/\/\S+)/))[1]!;
  return { server, url };
}

/** CPU seconds (user + system, all threads) the process has used. */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** A process and its living descendants (a server's REST workers), from /proc. */
export function processTree(pid: number): number[] {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children.flatMap(processTree)];
}

/** CPU seconds of a process and its descendants. */
export function treeCpuSeconds(pid: number): number {
  return processTree(pid).reduce((sum, each) => sum + cpuSeconds(each), 0);
}

/** Context switches (voluntary + involuntary, every thread) of a process and its descendants, from /proc: each is a sleep or a preemption. */
export function treeContextSwitches(pid: number): number {
  let switches = 0;
  for (const each of processTree(pid)) {
    for (const task of fs.readdirSync(`/proc/${each}/task`)) {
      let status = "";
      try {
        status = fs.readFileSync(`/proc/${each}/task/${task}/status`, "utf8");
      } catch {
        continue; // the thread ended meanwhile
      }
      for (const match of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s+(\d+)$/gm)) switches += Number(match[1]);
    }
  }
  return switches;
}

/** Resident memory of a process, from /proc (Linux): now and its peak, in MB. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))![1]);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

/** Resident memory of a process and its living descendants (a server's REST workers) together, in MB. */
export function treeRssMb(pid: number): number {
  return processTree(pid).reduce((sum, each) => sum + memoryOf(each).rssMb, 0);
}

/** Kept-alive connections; one by default (per-request latency loops), more for concurrent senders. */
const oneConnection = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return request(url, { method: "GET", headers, agent: oneConnection });
}

export function post(url: string, body: string, agent: http.Agent = oneConnection): Promise<{ status: number; body: string }> {
  return request(url, { method: "POST", headers: { "content-type": "application/json" }, agent }, body);
}

function request(url: string, options: http.RequestOptions, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

export function machine(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`;
}
