/**
 * Start-up and memory of the compiled command line on a development home
 * that has been started before: `start` to the first answered request,
 * `routes` and `--help` to exit, resident memory idle after start, after
 * 10,000 requests and after 1,000,000 (no growth), and the peak.
 */
import { spawn } from "node:child_process";
import type { BenchHome } from "./benchHome.js";
import { child, CLI, fmtMs, get, load, memoryOf, record } from "./benchTools.js";

const RUNS = 5;

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function timeToExit(args: string[]): Promise<number> {
  const start = performance.now();
  await new Promise<void>((resolve, reject) =>
    spawn(process.execPath, [CLI, ...args], { stdio: "ignore" }).on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited ${code}`)),
    ),
  );
  return performance.now() - start;
}

/** Spawns `start` and asks for the bank params until answered: ms from spawn to the first 200. */
async function startToFirstAnswer(home: string): Promise<{ ms: number; node: ReturnType<typeof child>; restUrl: string }> {
  const start = performance.now();
  const node = child([CLI, "start", "--home", home, "--api.address", "tcp://127.0.0.1:0", "--rpc.laddr", "tcp://127.0.0.1:0"]);
  const restUrl = (await node.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
  for (;;) {
    const r = await get(`${restUrl}/core/bank/v1beta1/params`).catch(() => undefined);
    if (r?.status === 200) return { ms: performance.now() - start, node, restUrl };
  }
}

export async function startupMemoryBenchmarks(bench: BenchHome, address: string): Promise<void> {
  console.log(`\nstart-up and memory (median of ${RUNS} runs where timed)`);
  const starts: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { ms, node } = await startToFirstAnswer(bench.home);
    starts.push(ms);
    await node.stop();
  }
  const startMs = median(starts);
  record({
    subject: "start on an existing home → first answer",
    baseline: "target",
    ratio: 1000 / startMs,
    target: "≥ 1.0x (≤ 1.0 s)",
    subjectValue: fmtMs(startMs),
    baselineValue: "1000 ms",
    note: "ratio = target / time",
  });
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

  const { node, restUrl } = await startToFirstAnswer(bench.home);
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const pid = node.proc.pid!;
    const idle = memoryOf(pid).rssMb;
    record({
      subject: "idle RSS after start",
      baseline: "target",
      ratio: 120 / idle,
      target: "≥ 1.0x (≤ 120 MB)",
      subjectValue: `${idle.toFixed(0)} MB`,
      baselineValue: "120 MB",
      note: "ratio = target / RSS",
    });
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
}
