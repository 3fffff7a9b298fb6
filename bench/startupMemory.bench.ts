/**
 * Start-up and memory of the compiled command line on a development home
 * that has been started before: `start` to the first answered request (and, with
 * startupAtSizeRows, on homes of 100,000 and 1,000,000 accounts against it),
 * `routes` and `--help` to exit, resident memory idle after start, after
 * 10,000 requests and after 1,000,000 (no growth), and the peak.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import type { BenchHome } from "./benchHome.js";
import { CLI, fmtMs, load, memoryOf, record } from "./benchTools.js";
import { existingHomeStart, median, startToFirstAnswer } from "./existingHomeStart.js";

const RUNS = 5;

async function timeToExit(args: string[]): Promise<number> {
  const start = performance.now();
  await new Promise<void>((resolve, reject) =>
    spawn(process.execPath, [CLI, ...args], { stdio: "ignore" }).on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited ${code}`)),
    ),
  );
  return performance.now() - start;
}

/**
 * Start-up and idle memory on a home of `accounts` accounts against the small home's
 * (measured in the same run): they should not grow with the genesis.
 */
const cpu = (start: { cpuMs?: number }) => (start.cpuMs === undefined ? "?" : `${(start.cpuMs / 1000).toFixed(2)} s`);

export function startupAtSizeRows(
  accounts: number,
  large: { startMs: number; idleRssMb: number; cpuMs?: number },
  small: { startMs: number; idleRssMb: number; cpuMs?: number },
  smallAccounts = 10,
): void {
  const n = accounts.toLocaleString("en");
  const baseline = `the same on a home of ${smallAccounts.toLocaleString("en")} accounts`;
  record({
    subject: `start on an existing home of ${n} accounts → first answer`,
    baseline,
    ratio: small.startMs / large.startMs,
    target: "≥ 0.8x (and ≤ 1.0 s)",
    subjectValue: fmtMs(large.startMs),
    baselineValue: fmtMs(small.startMs),
    note: `ratio = baseline time / subject time; CPU time of the start to 2 s idle (user+sys) ${cpu(large)} vs ${cpu(small)}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  });
  record({
    subject: `idle RSS after start, ${n} accounts`,
    baseline,
    ratio: small.idleRssMb / large.idleRssMb,
    target: "≥ 0.9x (and ≤ 120 MB)",
    subjectValue: `${large.idleRssMb.toFixed(0)} MB`,
    baselineValue: `${small.idleRssMb.toFixed(0)} MB`,
    note: "ratio = baseline RSS / subject RSS; RSS of every process of the server together",
  });
}

/** The rows of a start on the small (10-account) home against their targets; `startup:sizes` records them too. */
export function recordStartTime({ startMs, cpuMs }: { startMs: number; cpuMs?: number }): void {
  record({
    subject: "start on an existing home → first answer",
    baseline: "target",
    ratio: 1000 / startMs,
    target: "≥ 1.0x (≤ 1.0 s)",
    subjectValue: fmtMs(startMs),
    baselineValue: "1000 ms",
    note: `ratio = target / time; CPU time of the start to 2 s idle ${cpu({ cpuMs })}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  });
}

export function recordIdleRss({ idleRssMb }: { idleRssMb: number }): void {
  record({
    subject: "idle RSS after start",
    baseline: "target",
    ratio: 120 / idleRssMb,
    target: "≥ 1.0x (≤ 120 MB)",
    subjectValue: `${idleRssMb.toFixed(0)} MB`,
    baselineValue: "120 MB",
    note: "ratio = target / RSS; RSS of every process of the server together",
  });
}

export async function startupMemoryBenchmarks(bench: BenchHome, address: string): Promise<{ startMs: number; idleRssMb: number }> {
  console.log(`\nstart-up and memory (median of ${RUNS} runs where timed)`);
  const small = await existingHomeStart(bench.home);
  const { startMs, idleRssMb } = small;
  recordStartTime(small);
  for (const args of [["routes"], ["--help"]]) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timeToExit(args));
    const ms = median(times);
    record({
      subject: `chain-rest ${args.join(" ")} → exit`,
      baseline: "target",
      ratio: 500 / ms,
      target: "≥ 1.0x (≤ 0.5 s)",
      subjectValue: fmtMs(ms),
      baselineValue: "500 ms",
      note: "ratio = target / time",
    });
  }
  recordIdleRss(small);
  const { node, restUrl } = await startToFirstAnswer(bench.home);
  try {
    const pid = node.proc.pid!;
    const route = () => `/core/bank/v1beta1/balances/${address}`;
    await load(restUrl, route, { amount: 10_000 });
    const after10k = memoryOf(pid).rssMb;
    const million = await load(restUrl, route, { amount: 1_000_000 });
    const after1m = memoryOf(pid);
    record({
      subject: "RSS after 1,000,000 requests",
      baseline: "RSS after the first 10,000",
      ratio: after1m.rssMb / after10k,
      target: "≤ 1.20x",
      subjectValue: `${after1m.rssMb.toFixed(0)} MB`,
      baselineValue: `${after10k.toFixed(0)} MB`,
      p50: million.p50,
      p99: million.p99,
      note: `ratio = growth, lower is better; peak RSS ${after1m.peakMb.toFixed(0)} MB; ${million.rps.toFixed(0)} req/s`,
    });
  } finally {
    await node.stop();
  }
  return { startMs, idleRssMb };
}
