import path from "node:path";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { makeSignBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { initHome } from "../src/commands/init.js";
import { Codec } from "../src/codec/codec.js";
import { deriveAccounts } from "../src/codec/keys.js";
import { EmbeddedNode } from "../src/node/embeddedNode.js";
import { TEST_MNEMONIC } from "../test/helpers/devNode.js";
import { directTx, send, type TestSigner } from "../test/helpers/txSigner.js";
import { editConfig } from "./benchHome.js";
import { fmtMs, get, interleavedTimings, record, startChainRest } from "./benchTools.js";

const MATCHING = Number(process.env.BENCH_SEARCH_TXS ?? 10_000);
const SENDERS = 20;
const PER_BLOCK = 500;
const EXTRA_BLOCKS = 2_000;
const LIMIT = 5;
const RUNS = 400;

/** A TestSigner that signs SIGN_MODE_DIRECT with @noble/curves (the cosmjs wallet takes tens of ms a signature). */
function fastSigner(account: { address: string; publicKey: Uint8Array; privateKey: Uint8Array }): TestSigner {
  return {
    address: account.address,
    pubkey: account.publicKey,
    signDirect: async (bodyBytes, authInfoBytes, chainId, accountNumber) =>
      secp256k1.sign(sha256(makeSignBytes(makeSignDoc(bodyBytes, authInfoBytes, chainId, accountNumber))), account.privateKey, {
        prehash: false,
        lowS: true,
        format: "compact",
      }),
    signAmino: () => Promise.reject(new Error("direct signing only")),
  };
}

/**
 * tx_search and block_search read from the event index: a page of a search
 * with MATCHING matching transactions (any page, at random) against a page of
 * a search with ten, over the legacy route, the gateway route and the node's
 * RPC; block_search over EXTRA_BLOCKS blocks against one over ten blocks.
 */
export async function eventSearchBenchmarks(dir: string): Promise<void> {
  console.log(
    `\npreparing a chain with ${MATCHING.toLocaleString("en")} transactions to one recipient and ${EXTRA_BLOCKS.toLocaleString("en")} more blocks...`,
  );
  const home = path.join(dir, "home-search");
  initHome({ home, chainId: "devnet-1", accounts: SENDERS + 2, denom: "uhub", mnemonic: TEST_MNEMONIC });
  editConfig(home, "app.toml", "answer-cache-mb = 32", "answer-cache-mb = 0"); // every request is searched, none reused
  const accounts = deriveAccounts(TEST_MNEMONIC, "hub", SENDERS + 2);
  const [hot, cold] = [accounts[SENDERS]!.address, accounts[SENDERS + 1]!.address];
  const node = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "bench", codec: new Codec() });
  const signers = accounts.slice(0, SENDERS).map(fastSigner);
  const sequences = signers.map(() => 0);
  const started = performance.now();
  for (let sent = 0; sent < MATCHING + 10;) {
    for (let inBlock = 0; inBlock < PER_BLOCK && sent < MATCHING + 10; inBlock++, sent++) {
      const from = sent % SENDERS;
      const to = sent < MATCHING ? hot : cold;
      const tx = await directTx(signers[from]!, { messages: [send(signers[from]!.address, to, "1")], sequence: sequences[from]!++, accountNumber: from });
      const checked = await node.checkTx(tx);
      if (checked.outcome.code !== 0) throw new Error(`bench tx refused: ${checked.outcome.log}`);
    }
    await node.produceBlock();
  }
  for (let i = 0; i < EXTRA_BLOCKS; i++) await node.produceBlock();
  const height = node.height;
  await node.close();
  console.log(`  chain ready in ${((performance.now() - started) / 1000).toFixed(0)} s, height ${height}`);

  const { node: proc, restUrl, rpcUrl } = await startChainRest(home);
  try {
    const pages = Math.ceil(MATCHING / LIMIT);
    const page = (i: number, of: number) => 1 + ((i * 7919) % of); // spread over every page, no two neighbours alike
    const ok = async (url: string) => {
      const r = await get(url);
      if (r.status !== 200) throw new Error(`${url}: ${r.status} ${r.body.slice(0, 200)}`);
    };
    const legacy = (to: string, of: number) => (i: number) => ok(`${restUrl}/txs?transfer.recipient=${to}&limit=${LIMIT}&page=${page(i, of)}`);
    const gateway = (to: string, of: number) => (i: number) =>
      ok(
        `${restUrl}/core/tx/v1beta1/txs?events=${encodeURIComponent(`transfer.recipient='${to}'`)}&pagination.limit=${LIMIT}&pagination.offset=${(page(i, of) - 1) * LIMIT}`,
      );
    const rpc = (to: string, of: number) => (i: number) =>
      ok(`${rpcUrl}/tx_search?query=${encodeURIComponent(`"transfer.recipient='${to}'"`)}&page=${page(i, of)}&per_page=${LIMIT}`);
    for (const [name, route] of [
      ["GET /txs?transfer.recipient=…&limit=5 (legacy)", legacy],
      ["GET /core/tx/v1beta1/txs?events=transfer.recipient=… (gateway)", gateway],
      ["tx_search (node RPC)", rpc],
    ] as const) {
      const [many, few] = await interleavedTimings(RUNS, 20, [route(hot, pages), route(cold, 2)]);
      record({
        subject: `${name}, a random page of ${MATCHING.toLocaleString("en")} matching txs (p99)`,
        baseline: "a page of 10 matching txs (p99)",
        ratio: few.p99 / many.p99,
        target: "p99 ≤ 20 ms",
        subjectValue: fmtMs(many.p99),
        baselineValue: fmtMs(few.p99),
        p50: many.p50,
        p99: many.p99,
        note: `ratio = baseline / subject; p50 ${fmtMs(many.p50)} against ${fmtMs(few.p50)}; answer cache off`,
      });
    }
    // every block's BeginBlock pays the minted coins to the fee collector: a pair every block has
    const feeCollector = JSON.parse((await get(`${rpcUrl}/block_results?height=${height}`)).body) as {
      result: { begin_block_events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }> };
    };
    const recipient = feeCollector.result.begin_block_events
      .find((e) => e.type === "transfer")!
      .attributes.map((a) => [Buffer.from(a.key, "base64").toString(), Buffer.from(a.value, "base64").toString()])
      .find(([key]) => key === "recipient")![1]!;
    const blockSearch = (query: string, of: number) => (i: number) =>
      ok(`${rpcUrl}/block_search?query=${encodeURIComponent(`"${query}"`)}&page=${page(i, of)}&per_page=${LIMIT}`);
    const [allBlocks, tenBlocks] = await interleavedTimings(RUNS, 20, [
      blockSearch(`transfer.recipient='${recipient}'`, Math.ceil(height / LIMIT) - 1),
      blockSearch(`block.height > ${height - 10}`, 2),
    ]);
    record({
      subject: `block_search, a random page of the ${height.toLocaleString("en")} blocks with a pair (p99)`,
      baseline: "a page of the last 10 of them (p99)",
      ratio: tenBlocks.p99 / allBlocks.p99,
      target: "p99 ≤ 20 ms",
      subjectValue: fmtMs(allBlocks.p99),
      baselineValue: fmtMs(tenBlocks.p99),
      p50: allBlocks.p50,
      p99: allBlocks.p99,
      note: `ratio = baseline / subject; p50 ${fmtMs(allBlocks.p50)} against ${fmtMs(tenBlocks.p50)}`,
    });
  } finally {
    await proc.stop();
  }
}
