import fs from "node:fs";
import { child, FREE_PORTS, serverCommand, get, treeRssMb } from "./benchTools.js";

const RUNS = 5;
const IDLE_MS = 2000;

export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** Spawns `start` (of this build, or of `cli`) and asks for the bank params until answered: ms from spawn to the first 200. */
export async function startToFirstAnswer(home: string, cli?: string): Promise<{ ms: number; node: ReturnType<typeof child>; restUrl: string }> {
  const start = performance.now();
  const node = child([...serverCommand([], cli), "start", "--home", home, ...FREE_PORTS]);
  const restUrl = (await node.waitFor(/REST server: (http:\/\/\S+)/))[1]!;
  for (;;) {
    const r = await get(`${restUrl}/core/bank/v1beta1/params`).catch(() => undefined);
    if (r?.status === 200) return { ms: performance.now() - start, node, restUrl };
  }
}

/**
 * `chain-rest start` on a home started before: the median time to the first answer of
 * RUNS starts, and the resident memory two seconds after the last one's first answer: every
 * process of the server together (its REST workers, when api.workers > 1; no launcher).
 */
export async function existingHomeStart(home: string): Promise<{ startMs: number; idleRssMb: number; cpuMs: number }> {
  const starts: number[] = [];
  let idleRssMb = 0;
  let cpuMs = 0;
  for (let i = 0; i < RUNS; i++) {
    const { ms, node } = await startToFirstAnswer(home);
    starts.push(ms);
    if (i === RUNS - 1) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      idleRssMb = treeRssMb(node.proc.pid!);
      cpuMs = cpuTimeMs(node.proc.pid!);
    }
    await node.stop();
  }
  return { startMs: median(starts), idleRssMb, cpuMs };
}

/** A process's CPU time so far (user + sys, all its threads), from /proc (Linux; clock ticks of 10 ms). */
export function cpuTimeMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime: fields 14 and 15 of stat
}
