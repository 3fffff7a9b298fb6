/**
 * A page of 100 accounts by pagination.key deep in a 1,000,000-account genesis
 * against the first page of a 1,000-account genesis (the embedded node's
 * Accounts query, at the latest height), with how long the large genesis takes
 * to import and how big {home}/data gets. Runs in its own process (a large
 * heap); prints one JSON line with its results for bench/run.ts.
 *
 *   node --max-old-space-size=16384 --import tsx bench/largeGenesis.bench.ts [accounts=1000000]
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { initHome } from "../src/commands/init.js";
import { decodeBech32Address } from "../src/codec/bech32.js";
import { Codec } from "../src/codec/codec.js";
import { EmbeddedNode } from "../src/node/embeddedNode.js";
import { addGenesisAccounts } from "../test/helpers/largeGenesis.js";
import { scratchDir, timings } from "./benchTools.js";

const LARGE = Number(process.argv[2] ?? 1_000_000);
const SMALL = 1_000;
const codec = new Codec();
const Request = codec.type("core.auth.v1beta1.QueryAccountsRequest");
const ACCOUNTS = "/core.auth.v1beta1.Query/Accounts";

async function openWith(accounts: number) {
  const home = path.join(scratchDir(`genesis-${accounts}`), "home");
  initHome({ home, chainId: "devnet-1", accounts: 10, denom: "uhub" });
  addGenesisAccounts(home, accounts);
  const start = performance.now();
  const node = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "bench", codec });
  const importMs = performance.now() - start;
  const dataBytes = Number(execFileSync("du", ["-sb", path.join(home, "data")], { encoding: "utf8" }).split("\t")[0]);
  return { home, node, importMs, dataBytes };
}

async function page(node: EmbeddedNode, pagination: Record<string, unknown>): Promise<void> {
  const answer = await node.query(ACCOUNTS, Request.encode({ pagination }).finish());
  if (answer.code !== 0) throw new Error(answer.log);
  const accounts = (Request.parent!.lookupType("QueryAccountsResponse").decode(answer.value) as unknown as { accounts: unknown[] }).accounts;
  if (accounts.length !== 100) throw new Error(`a page of ${accounts.length} accounts`);
}

const small = await openWith(SMALL);
const first = await timings(300, () => page(small.node, { limit: 100 }));
await small.node.close();

const large = await openWith(LARGE);
// Deep keys: accounts whose address sorts past the middle of the key space (addresses are random).
const genesisAddresses = (
  JSON.parse(fs.readFileSync(path.join(large.home, "config", "genesis.json"), "utf8")) as { app_state: { bank: { balances: Array<{ address: string }> } } }
).app_state.bank.balances;
const deepKeys = genesisAddresses
  .map((a) => decodeBech32Address(a.address, "hub", "address"))
  .filter((bytes) => bytes[0]! >= 0x80 && bytes[0]! < 0xf0)
  .slice(0, 300);
const deep = await timings(deepKeys.length, (i) => page(large.node, { key: deepKeys[i], limit: 100 }));
await large.node.close();

console.log(
  JSON.stringify({
    large: LARGE,
    small: SMALL,
    importMs: large.importMs,
    smallImportMs: small.importMs,
    dataBytes: large.dataBytes,
    firstPage: first,
    deepPage: deep,
  }),
);
