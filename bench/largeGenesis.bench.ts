/**
 * A page of 100 accounts by pagination.key deep in a 1,000,000-account genesis
 * (pages walked by their next_key from deep keys, as a client pages) against
 * the first page of a 1,000-account genesis (the embedded node's Accounts
 * query, at the latest height), with how long the large genesis takes to
 * import, the longest wait between its progress lines, how big {home}/data
 * gets, and `chain-rest start` (time to the first answer, idle RSS) on both
 * homes once imported. Runs in its own process (a large heap); prints one
 * JSON line with its results for bench/run.ts.
 *
 *   node --max-old-space-size=16384 --import tsx bench/largeGenesis.bench.ts [accounts=1000000]
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { initHome } from "../src/commands/init.js";
import { decodeBech32Address } from "../src/codec/bech32.js";
import { Codec } from "../src/codec/codec.js";
import { EmbeddedNode } from "../src/node/embeddedNode.js";
import { addGenesisAccounts } from "../test/helpers/largeGenesis.js";
import { scratchDir, timings } from "./benchTools.js";
import { existingHomeStart } from "./existingHomeStart.js";

const LARGE = Number(process.argv[2] ?? 1_000_000);
const SMALL = 1_000;
const codec = new Codec();
const Request = codec.type("core.auth.v1beta1.QueryAccountsRequest");
const ACCOUNTS = "/core.auth.v1beta1.Query/Accounts";
const WALKS = 10;
const PAGES_PER_WALK = 30;

async function openWith(accounts: number) {
  const home = path.join(scratchDir(`genesis-${accounts}`), "home");
  initHome({ home, chainId: "devnet-1", accounts: 10, denom: "uhub" });
  addGenesisAccounts(home, accounts);
  const loadBefore = os.loadavg()[0]!;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const lineTimes: number[] = [start];
  const importProgress = (line: string) => {
    lineTimes.push(performance.now());
    console.error(line);
  };
  const node = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "bench", codec, importProgress });
  const importMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  // the process's CPU time: its JavaScript and LevelDB's compaction threads
  const importCpuMs = (cpu.user + cpu.system) / 1000;
  const load = [loadBefore, os.loadavg()[0]!];
  lineTimes.push(performance.now());
  const longestGapMs = Math.max(...lineTimes.slice(1).map((t, i) => t - lineTimes[i]!));
  const dataBytes = Number(execFileSync("du", ["-sb", path.join(home, "data")], { encoding: "utf8" }).split("\t")[0]);
  return { home, node, importMs, importCpuMs, load, longestGapMs, dataBytes };
}

/** One page of 100 accounts; the key of the page after it. */
async function page(node: EmbeddedNode, pagination: Record<string, unknown>): Promise<Uint8Array> {
  const answer = await node.query(ACCOUNTS, Request.encode({ pagination }).finish());
  if (answer.code !== 0) throw new Error(answer.log);
  const response = Request.parent!.lookupType("QueryAccountsResponse").decode(answer.value) as unknown as {
    accounts: unknown[];
    pagination: { next_key: Uint8Array };
  };
  if (response.accounts.length !== 100) throw new Error(`a page of ${response.accounts.length} accounts`);
  return response.pagination.next_key;
}

const small = await openWith(SMALL);
const first = await timings(300, () => page(small.node, { limit: 100 }));
await small.node.close();

const large = await openWith(LARGE);
// Deep keys: accounts whose address sorts past the middle of the key space (addresses are random).
const genesisAddresses = (
  JSON.parse(fs.readFileSync(path.join(large.home, "config", "genesis.json"), "utf8")) as { app_state: { bank: { balances: Array<{ address: string }> } } }
).app_state.bank.balances;
// A client pages by the next_key of each answer: ten walks of thirty pages, each from its own deep key.
const deepKeys = genesisAddresses
  .map((a) => decodeBech32Address(a.address, "hub", "address"))
  .filter((bytes) => bytes[0]! >= 0x80 && bytes[0]! < 0xa0)
  .slice(0, WALKS);
let nextKey: Uint8Array = new Uint8Array();
const deep = await timings(WALKS * PAGES_PER_WALK, async (i) => {
  nextKey = await page(large.node, { key: i % PAGES_PER_WALK === 0 ? deepKeys[i / PAGES_PER_WALK] : nextKey, limit: 100 });
});
await large.node.close();
const smallStart = await existingHomeStart(small.home);
const largeStart = await existingHomeStart(large.home);

console.log(
  JSON.stringify({
    large: LARGE,
    small: SMALL,
    importMs: large.importMs,
    importCpuMs: large.importCpuMs,
    importLoad: large.load,
    longestGapMs: large.longestGapMs,
    smallStart,
    largeStart,
    smallImportMs: small.importMs,
    dataBytes: large.dataBytes,
    firstPage: first,
    deepPage: deep,
  }),
);
