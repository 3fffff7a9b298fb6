/**
 * Whether a REST worker's heap bound costs CPU: server CPU per request on the hot and cold balance
 * rows, one-process servers with other V8 heap flags (the variants below; two equal ones show the
 * spread between equal servers), all on CPU 1 (the load generator on CPU 0), V8's collections
 * counted (flagVariantsCost.ts). Why ask: V8 scales its old generation's growing factor
 * with the heap's bound (1.3 for small bounds up to 4.0 at its default; heap-controller.cc,
 * MaxGrowingFactor), and a worker runs with `--max-old-space-size` of 256 MB plus the answer
 * cache (restWorkers.ts). Measured 2026-11-27 08:20 (load 1.1–1.5): hot 118 / 121 (equal) /
 * 126 (320 MB) / 124 µs (2048 MB), cold 128 / 128 / 129 / 120 µs, major collections 0–2.4 per
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
