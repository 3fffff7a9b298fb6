/**
 * Genesis import and account paging at 100,000 accounts, against the same
 * work at 1,000 accounts in the same run (ratios, not absolute times).
 *
 *   npx tsx bench/largeGenesis.bench.ts
 */
import path from "node:path";
import { initHome } from "../src/commands/init.js";
import { Codec } from "../src/codec/codec.js";
import { EmbeddedNode } from "../src/node/embeddedNode.js";
import { addGenesisAccounts } from "../test/helpers/largeGenesis.js";
import { medianMs, report, scratchDir } from "./benchTools.js";

const codec = new Codec();
const Request = codec.type("core.auth.v1beta1.QueryAccountsRequest");

async function measure(accounts: number) {
  const home = path.join(scratchDir(`genesis-${accounts}`), "home");
  initHome({ home, chainId: "devnet-1", accounts: 10, denom: "uhub" });
  addGenesisAccounts(home, accounts);
  const start = performance.now();
  const node = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "bench", codec });
  const loadMs = performance.now() - start;
  const page = (pagination: Record<string, unknown>) => node.query("/core.auth.v1beta1.Query/Accounts", Request.encode({ pagination }).finish());
  const first = await medianMs(30, () => page({ limit: 100 }));
  const deep = await medianMs(10, () => page({ offset: accounts - 100, limit: 100 }));
  await node.close();
  return { loadMs, first, deep };
}

const small = await measure(1_000);
const large = await measure(100_000);
report("genesis with 100,000 accounts vs 1,000 accounts (same run)", [
  ["genesis import", `${large.loadMs.toFixed(0)} ms vs ${small.loadMs.toFixed(0)} ms = ${(large.loadMs / small.loadMs).toFixed(1)}x for 100x the accounts`],
  ["first page of 100 (key mode)", `${large.first.toFixed(2)} ms vs ${small.first.toFixed(2)} ms = ${(large.first / small.first).toFixed(2)}x`],
  ["last page by offset", `${large.deep.toFixed(1)} ms vs ${small.deep.toFixed(1)} ms = ${(large.deep / small.deep).toFixed(1)}x (offset paging walks the keys before it)`],
]);
