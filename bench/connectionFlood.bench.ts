/**
 * Issue 24's connection flood: 10,000 silent connections held against
 * `chain-rest start` with the default [api] settings (a separate process
 * holds them, each reopened a second after the server ends it), while a client
 * asks GET /core/bank/v1beta1/params every 100 ms on a new connection and
 * follows Retry-After when told 503. Time from the first attempt to the 200,
 * during the flood against the same client with no flood (baseline).
 *
 *   npm run build && npx tsx bench/connectionFlood.bench.ts [seconds] [connections]
 */
import path from "node:path";
import { initHome } from "../src/commands/init.js";
import { TEST_MNEMONIC } from "../test/helpers/devNode.js";
import { askUntilOk, type Ask } from "../test/helpers/connectionFlood.js";
import { child, fmtMs, memoryOf, record, scratchDir, startChainRest } from "./benchTools.js";

const ROUTE = "/core/bank/v1beta1/params";
const ASK_EVERY_MS = 100;

export async function connectionFloodBenchmark(dir: string, seconds = 30, connections = 10_000): Promise<void> {
  const home = path.join(dir, "flood-home");
  initHome({ home, chainId: "devnet-1", accounts: 4, denom: "uhub", mnemonic: TEST_MNEMONIC });
  const { node, restUrl } = await startChainRest(home);
  try {
    console.log(`\nconnection flood: ${connections.toLocaleString("en")} silent connections, a client asking ${ROUTE} every ${ASK_EVERY_MS} ms`);
    const quiet = await askFor(restUrl, Math.min(10, seconds));
    const idleRss = memoryOf(node.proc.pid!).rssMb;
    const flooder = child(["--import", "tsx", path.join(import.meta.dirname, "floodClient.ts"), restUrl, String(connections)]);
    await floodHeld(flooder.output, Math.floor(connections * 0.95));
    const floodRss = memoryOf(node.proc.pid!).rssMb;
    const flooded = await askFor(restUrl, seconds);
    const lines = flooder.output().trim().split("\n");
    await flooder.stop();
    const f = summary(flooded);
    const q = summary(quiet);
    console.log(`  flood client at the end: ${lines.at(-1)}; server RSS ${idleRss.toFixed(0)} MB before the flood, ${floodRss.toFixed(0)} MB held`);
    console.log(`  during the flood: ${flooded.length} asks, ${f.first503} first answered 503, p50 ${fmtMs(f.p50)} p99 ${fmtMs(f.p99)} max ${fmtMs(f.max)}`);
    console.log(`  no flood: ${quiet.length} asks, p50 ${fmtMs(q.p50)} p99 ${fmtMs(q.p99)} max ${fmtMs(q.max)}`);
    record({
      subject: `time to a 200 under ${connections.toLocaleString("en")} silent connections (p99)`,
      baseline: "the same client with no flood (p99)",
      ratio: q.p99 / f.p99,
      target: "p99 <= 2 s",
      subjectValue: fmtMs(f.p99),
      baselineValue: fmtMs(q.p99),
      p50: f.p50,
      p99: f.p99,
      note: `${f.first503}/${flooded.length} first answers 503; RSS ${idleRss.toFixed(0)} -> ${floodRss.toFixed(0)} MB with the flood held`,
    });
  } finally {
    await node.stop();
  }
}

/** Waits (up to a minute) until the flood client reports `held` connections open. */
async function floodHeld(output: () => string, held: number): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const open = [...output().matchAll(/^open (\d+)/gm)].at(-1)?.[1];
    if (Number(open) >= held) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(`  the flood client did not reach ${held} open connections: ${output().trim().split("\n").at(-1)}`);
}

/** Asks every ASK_EVERY_MS for `seconds`, each ask on its own (they overlap when one takes longer). */
async function askFor(url: string, seconds: number): Promise<Ask[]> {
  const asks: Array<Promise<Ask>> = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    asks.push(askUntilOk(url, ROUTE));
    await new Promise((resolve) => setTimeout(resolve, ASK_EVERY_MS));
  }
  return Promise.all(asks);
}

function summary(asks: Ask[]) {
  const ms = asks.map((a) => a.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
  return { p50: at(0.5), p99: at(0.99), max: ms.at(-1)!, first503: asks.filter((a) => a.firstStatus === 503).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [seconds, connections] = process.argv.slice(2).map(Number);
  await connectionFloodBenchmark(scratchDir("flood"), seconds || undefined, connections || undefined);
}
