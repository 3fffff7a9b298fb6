/**
 * Whether a REST worker's heap bound costs CPU: server CPU per request on the hot and cold balance
 * rows, one-process servers with other V8 heap flags (the variants below; two equal ones show the
 * spread between equal servers), all on CPU 1 (the load generator on CPU 0), V8's collections
 * counted (flagVariantsCost.ts). Why ask: V8 scales its old generation's growing factor
 * with the heap's bound (1.3 for small bounds up to 4.0 at its default; heap-controller.cc,
 * MaxGrowingFactor), and a worker runs with `--max-old-space-size` of 256 MB plus the answer
 * cache (restWorkers.ts). Four runs of 2026-11-27 08:18–09:15 (load 1.1–2.3): two servers with
 * the same flags differed by up to 13 µs a request (131 against 118 hot at 09:13), the bounded
 * ones were the slower in two runs and not in the other two, and major collections were 0–3.7 per
 * 100,000 requests in every variant: within the spread, so the bound stays.
 * Not a results.json row: it prints its table.
 *   npx tsx bench/workerHeapCost.ts [rounds]   (default 5)
 */
import { flagVariantsCost } from "./flagVariantsCost.js";

await flagVariantsCost(
  "workerheap",
  {
    "one process's (no bound)": [],
    "one process's again (the spread between equal servers)": [],
    "bound 320 MB": ["--max-old-space-size=320"],
    "bound 2048 MB": ["--max-old-space-size=2048"],
  },
  Number(process.argv[2] ?? 5),
  { pinned: true, countCollections: true },
);
