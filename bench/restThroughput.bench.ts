/**
 * REST throughput of `chain-rest start` (compiled, in its own process) against
 * a bare Koa app answering the same bytes from memory, and the engine's own
 * comparisons: an earlier kept height against the latest, the full route table
 * against a table of one route. autocannon, 20 connections, 5 s each.
 *
 * `parts` picks some of them (hot, cold, params, table, telemetry); all when undefined.
 */
import fs from "node:fs";
import path from "node:path";
import { editConfig, type BenchHome } from "./benchHome.js";
import { telemetryCost } from "./telemetryCost.bench.js";
import { child, CONNECTIONS, DURATION_S, get, interleavedLoad, load, record, SLICES, startBareKoa, startChainRest, type Load } from "./benchTools.js";

const BALANCES = "/core/bank/v1beta1/balances/";
const PARAMS = "/core/bank/v1beta1/params";
/** Accounts the route-table comparison asks, each server reading them all once before its turns. */
const WARM_ACCOUNTS = 50_000;
const rate = (l: Load) => `${l.rps.toFixed(0)} req/s`;

export const REST_PARTS = ["hot", "cold", "params", "table", "telemetry"] as const;
export type RestPart = (typeof REST_PARTS)[number];

export async function restBenchmarks(bench: BenchHome, dir: string, parts: ReadonlySet<RestPart> = new Set(REST_PARTS)): Promise<void> {
  console.log(`\nREST throughput (${CONNECTIONS} connections, ${DURATION_S} s each; ${bench.addresses.length} accounts)`);
  const cold = (i: number) => `${BALANCES}${bench.addresses[i % bench.addresses.length]}`;
  if (parts.has("hot") || parts.has("cold") || parts.has("params")) await againstBareKoa(bench, dir, parts);
  if (parts.has("table")) await engineComparisons(bench, dir, cold);
  if (parts.has("telemetry")) await telemetryCost(bench, dir);
}

async function againstBareKoa(bench: BenchHome, dir: string, parts: ReadonlySet<RestPart>): Promise<void> {
  const { addresses } = bench;
  const hotAddress = addresses[0]!;
  const cold = (i: number) => `${BALANCES}${addresses[i % addresses.length]}`;
  const server = await startChainRest(bench.home);
  const bodies = new Map<string, string>();
  const answer = async (route: string) => {
    const r = await get(server.restUrl + route);
    if (r.status !== 200) throw new Error(`${route}: ${r.status} ${r.body}`);
    return r.body;
  };
  bodies.set(PARAMS, await answer(PARAMS));
  bodies.set(BALANCES + hotAddress, await answer(BALANCES + hotAddress));
  // Every generated account holds the same coins: one answer's bytes are every account's answer.
  const coldBody = await answer(cold(1));
  for (const address of addresses) if (address !== hotAddress) bodies.set(BALANCES + address, coldBody);
  const bare = await startBareKoa(bodies, dir);
  try {
    // Hot rows: the same request again and again. The cold rows: each request another account, none asked
    // twice (a second ask would be kept, a third reused), the 100,000 shared out over SLICES + 1 slices: the
    // first right after the start (the cold path compiled by the JIT, the kept reads filling), its own row.
    const coldSlice = Math.floor((addresses.length - 2) / (SLICES + 1)); // accounts 0 and 1 were asked above
    const rows: Array<{ part: RestPart; subject: string; pathOf: (i: number) => string; amount?: number; slices?: number; target: string }> = [
      { part: "hot", subject: "balance, same account again (hot)", pathOf: () => BALANCES + hotAddress, target: "≥ 0.8x" },
      {
        part: "cold",
        subject: `balance, another of ${addresses.length} accounts each request (cold: none asked before), the first ${coldSlice} after the start`,
        pathOf: (i) => cold(i + 2),
        amount: coldSlice,
        slices: 1,
        target: "none: the JIT and the kept reads warming",
      },
      {
        part: "cold",
        subject: `balance, another of ${addresses.length} accounts each request (cold: none asked before), the next ${SLICES * coldSlice}`,
        pathOf: (i) => cold(i + 2 + coldSlice),
        amount: coldSlice,
        target: "≥ 0.5x",
      },
      { part: "params", subject: "params (hot)", pathOf: () => PARAMS, target: "≥ 0.8x" },
    ];
    for (const { part, subject, pathOf, amount, slices, target } of rows) {
      if (!parts.has(part)) continue;
      const [engine, koa] = (await interleavedLoad(
        [
          { url: server.restUrl, pathOf, amount },
          { url: bare.url, pathOf },
        ],
        { slices, seconds: ((slices ?? SLICES) * DURATION_S) / SLICES },
      )) as [Load, Load];
      record({
        subject,
        baseline: "bare Koa, same bytes",
        ratio: engine.rps / koa.rps,
        target,
        subjectValue: rate(engine),
        baselineValue: rate(koa),
        p50: engine.p50,
        p99: engine.p99,
      });
    }
    if (parts.has("cold")) await coldOnLiveChain(bench, dir, bare.url, cold);
  } finally {
    await bare.server.stop();
    await server.node.stop();
  }
}

/**
 * The cold row on a node making a block a second (a copy of the home), after
 * its first 5 s: a commit updates the kept reads with its writes rather than
 * drop them, so a live chain keeps what the first seconds read; each block
 * empties the reused answers, so an account asked again some blocks later
 * (the accounts come round every few seconds) is read and rendered again.
 */
async function coldOnLiveChain(bench: BenchHome, dir: string, bareUrl: string, cold: (i: number) => string): Promise<void> {
  const copy = path.join(dir, "home-live");
  fs.cpSync(bench.home, copy, { recursive: true });
  editConfig(copy, "config.toml", "create_empty_blocks = false", "create_empty_blocks = true");
  editConfig(copy, "config.toml", 'create_empty_blocks_interval = "100ms"', 'create_empty_blocks_interval = "1s"');
  const live = await startChainRest(copy);
  try {
    const first = await load(live.restUrl, (i) => cold(i + 1)); // as the cold row's first 5 s, not measured
    const pathOf = (i: number) => cold(first.asked + i + 1);
    const [engine, koa] = (await interleavedLoad([
      { url: live.restUrl, pathOf },
      { url: bareUrl, pathOf },
    ])) as [Load, Load];
    record({
      subject: "the same on a node making a block a second, its next 5 s (accounts asked again blocks later)",
      baseline: "bare Koa, same bytes",
      ratio: engine.rps / koa.rps,
      target: "none: shows the kept reads carried from block to block",
      subjectValue: rate(engine),
      baselineValue: rate(koa),
      p50: engine.p50,
      p99: engine.p99,
    });
  } finally {
    await live.node.stop();
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

async function engineComparisons(bench: BenchHome, dir: string, cold: (i: number) => string): Promise<void> {
  // Answers not reused from here on (the engine's REST app with reuse off, in its own process):
  // the versions against the fast index, and the whole table (~250 routes) against only the measured route.
  // The one-route server opens a copy of the home (LevelDB admits one process), so both run at once.
  const serve = async (home: string, only?: string) => {
    const proc = child(["--import", "tsx", path.join(import.meta.dirname, "tableServer.ts"), home, ...(only ? [only] : [])]);
    return { proc, url: (await proc.waitFor(/listening (http:\/\/\S+)/))[1]! };
  };
  const copy = path.join(dir, "home-copy");
  fs.cpSync(bench.home, copy, { recursive: true });
  const fullTable = await serve(bench.home);
  const singleRoute = await serve(copy, `${BALANCES}{address}`);
  // Each just opened its LevelDB, which may compact in the background: the later one's must not fall on the other's turns.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  let full: Load, single: Load, latest: Load, earlier: Load;
  try {
    // Both servers first ask every account the turns will ask, unmeasured: each then holds those
    // accounts in its kept reads, and the turns measure the routing of ~250 routes against one, not
    // which server's LevelDB (one of them a fresh copy) happened to fill faster in its first seconds.
    // They read them in turns of a tenth each (the server that read last and the one idle meanwhile differed
    // by 3 % in runs of one route against one route).
    const pathOf = (i: number) => cold(1 + (i % WARM_ACCOUNTS));
    const part = WARM_ACCOUNTS / 10;
    for (let turn = 0; turn < 10; turn++) {
      for (const server of turn % 2 === 0 ? [fullTable, singleRoute] : [singleRoute, fullTable]) {
        await load(server.url, (i) => pathOf(turn * part + i), { amount: part });
      }
    }
    // Four times the usual time in four times the turns: runs of one route against one route ranged over
    // 0.94x–1.01x in turns over 10 s, as much as the few percent this row looks for.
    [full, single] = (await interleavedLoad(
      [
        { url: fullTable.url, pathOf },
        { url: singleRoute.url, pathOf },
      ],
      { slices: 24, seconds: 4 * DURATION_S },
    )) as [Load, Load];
    const further = (i: number) => cold(WARM_ACCOUNTS + 1 + i); // accounts not asked above
    [latest, earlier] = (await interleavedLoad([
      { url: fullTable.url, pathOf: further },
      { url: fullTable.url, pathOf: further, headers: { "x-cosmos-block-height": "2" } },
    ])) as [Load, Load];
  } finally {
    await Promise.all([fullTable.proc.stop(), singleRoute.proc.stop()]);
    fs.rmSync(copy, { recursive: true, force: true });
  }
  record({
    subject: "balance at an earlier kept height (2), cold, no reuse",
    baseline: "same at the latest height",
    ratio: earlier.rps / latest.rps,
    target: "≥ 0.5x",
    subjectValue: rate(earlier),
    baselineValue: rate(latest),
    p50: earlier.p50,
    p99: earlier.p99,
  });
  record({
    subject: `balance, another of ${WARM_ACCOUNTS} accounts each request (kept reads warm), full route table, no reuse`,
    baseline: "table of only that route",
    ratio: full.rps / single.rps,
    target: "≥ 0.95x",
    subjectValue: rate(full),
    baselineValue: rate(single),
    p50: full.p50,
    p99: full.p99,
  });
}
