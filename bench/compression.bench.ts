/**
 * Compression: the server's CPU per request for the same answers asked with
 * `Accept-Encoding: br` (and gzip) against asked without, from
 * /proc/PID/task/TID/schedstat (time on a CPU of every thread of `chain-rest
 * start`, in nanoseconds: the thread pool compresses the large bodies) around
 * autocannon runs of a fixed number of requests, subject and baseline in turns. Answers asked again: the answer
 * cache's and the OpenAPI document, which EncodedBodies compresses once
 * (test/http/compressedOnce.test.ts counts it), after unmeasured runs of
 * each side.
 */
import type { BenchHome } from "./benchHome.js";
import fs from "node:fs";
import { get, load, record, startChainRest } from "./benchTools.js";

const TURNS = 8;

export async function compressionBenchmark(bench: BenchHome): Promise<void> {
  console.log("\ncompression: server CPU per request, the same answers with and without Accept-Encoding");
  const server = await startChainRest(bench.home);
  const pid = server.node.proc.pid!;
  try {
    const subjects = [
      { name: "balance (hot, 150 bytes: under the threshold)", path: `/core/bank/v1beta1/balances/${bench.addresses[0]}`, amount: 4000 },
      { name: "a page of 100 accounts (hot)", path: "/core/auth/v1beta1/accounts?pagination.limit=100", amount: 2000 },
      { name: "the OpenAPI document", path: "/swagger", amount: 40 },
    ];
    for (const subject of subjects) {
      const identity = await get(server.restUrl + subject.path);
      for (const encoding of ["br", "gzip"]) {
        const cpu = { with: 0, without: 0 };
        const requests = { with: 0, without: 0 };
        const headersOf = (side: "with" | "without"): Record<string, string> => (side === "with" ? { "accept-encoding": encoding } : {});
        // unmeasured runs of each side first (as many requests as measured): a fresh server's first
        // thousands of requests cost up to twice the later ones (V8 compiling, the heap growing),
        // the answer cache keeps an answer at its second ask and the compressed path compresses
        // once; all that fell on the first turn's first side ("with") of the first rows, which
        // read 0.71-0.86x so while the server compressed the page once (counted)
        for (const side of ["with", "without"] as const) {
          await load(server.restUrl, () => subject.path, { amount: subject.amount, connections: 4, headers: headersOf(side) });
        }
        for (let turn = 0; turn < TURNS; turn++) {
          // Thue-Morse order (AB BA BA AB BA AB AB BA): a cost that drifts during the row (the
          // server still warming, the machine's load) falls on both sides alike; plain AB BA AB..
          // charged a decaying drift to "with" (the balance rows, no compression at all, read 0.86x)
          const sides = thueMorse(turn) ? (["without", "with"] as const) : (["with", "without"] as const);
          for (const side of sides) {
            const before = cpuSeconds(pid);
            const run = await load(server.restUrl, () => subject.path, { amount: subject.amount / TURNS, connections: 4, headers: headersOf(side) });
            cpu[side] += cpuSeconds(pid) - before;
            requests[side] += run.total;
          }
        }
        const perRequest = (side: "with" | "without") => (cpu[side] / requests[side]) * 1e6;
        record({
          subject: `${subject.name}, Accept-Encoding: ${encoding} (${identity.body.length.toLocaleString("en")} bytes as they are): server CPU per request`,
          baseline: "the same without Accept-Encoding",
          ratio: perRequest("without") / perRequest("with"),
          target: "≥ 0.9x (compressed once: at most 10 % more CPU)",
          subjectValue: `${perRequest("with").toFixed(0)} µs`,
          baselineValue: `${perRequest("without").toFixed(0)} µs`,
          note: `ratio = baseline CPU / subject CPU; ${requests.with} and ${requests.without} requests in ${TURNS} turns (Thue-Morse order) after unmeasured warm-up runs, 4 connections`,
        });
      }
    }
  } finally {
    await server.node.stop();
  }
}

/** The Thue-Morse sequence's bit `n`: whether n has an odd number of ones. */
function thueMorse(n: number): boolean {
  let ones = 0;
  for (let rest = n; rest > 0; rest >>= 1) ones += rest & 1;
  return ones % 2 === 1;
}

/**
 * CPU seconds of every living thread of the process, in nanoseconds from /proc/PID/task/TID/schedstat:
 * /proc/PID/stat counts in 10 ms ticks, too coarse for turns of 40-100 ms.
 */
function cpuSeconds(pid: number): number {
  let ns = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e9;
}
