import os from "node:os";
import path from "node:path";
import { fmtMs, record } from "./benchTools.js";
import { cpuTimeMs, median, startToFirstAnswer } from "./existingHomeStart.js";

const RUNS = 6;

/**
 * `startup:sizes --against DIR`: this build's start on `home` against the build in DIR (another
 * checkout after `npm run build`, e.g. the commit before a change), alternated start by start so
 * both see the same load: first answer and the CPU time the process used until then.
 */
export async function buildComparison(home: string, accounts: number, otherRoot: string): Promise<void> {
  const other = path.join(otherRoot, "bin", "chain-rest.js");
  const ours = { ms: [] as number[], cpuMs: [] as number[] };
  const theirs = { ms: [] as number[], cpuMs: [] as number[] };
  const loadBefore = os.loadavg()[0]!;
  for (let i = 0; i < RUNS; i++) {
    for (const [cli, into] of i % 2 === 0
      ? ([
          [undefined, ours],
          [other, theirs],
        ] as const)
      : ([
          [other, theirs],
          [undefined, ours],
        ] as const)) {
      const { ms, node } = await startToFirstAnswer(home, cli);
      into.ms.push(ms);
      into.cpuMs.push(cpuTimeMs(node.proc.pid!));
      await node.stop();
    }
  }
  const n = accounts.toLocaleString("en");
  record({
    subject: `start on an existing home of ${n} accounts → first answer, this build`,
    baseline: `the build in ${path.basename(otherRoot)}, alternated`,
    ratio: median(theirs.ms) / median(ours.ms),
    target: "> 1.0x",
    subjectValue: fmtMs(median(ours.ms)),
    baselineValue: fmtMs(median(theirs.ms)),
    note: `ratio = baseline time / subject time; CPU to the first answer ${fmtMs(median(ours.cpuMs))} vs ${fmtMs(median(theirs.cpuMs))}; load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  });
}
