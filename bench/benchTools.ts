import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A scratch folder for one benchmark run, removed at exit. */
export function scratchDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `chain-rest-bench-${name}-`));
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Median wall time of `runs` calls of `fn`, in milliseconds. */
export async function medianMs(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export function report(title: string, rows: Array<[string, string]>): void {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [key, value] of rows) console.log(`  ${key.padEnd(width)}  ${value}`);
}
