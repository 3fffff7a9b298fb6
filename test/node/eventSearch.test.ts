import { expect } from "chai";
import path from "node:path";
import { ClassicLevel } from "classic-level";
import { EventQuery, type EventAttributes } from "../../src/events/eventQuery.js";
import { Codec } from "../../src/codec/codec.js";
import { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { indexedPairs } from "../../src/node/chain/eventIndex.js";
import { searchTxs } from "../../src/node/chain/txSearch.js";
import { searchBlocks } from "../../src/node/chain/blockSearch.js";
import { openDevNode } from "../helpers/devNode.js";
import { directTx, send, testSigner, type TestSigner } from "../helpers/txSigner.js";
import { TEST_MNEMONIC } from "../helpers/devNode.js";

interface Occurrence {
  id: string;
  attributes: EventAttributes;
}

/** Every committed tx and block with the attributes a search compares (the model the index must agree with). */
async function model(node: EmbeddedNode): Promise<{ txs: Occurrence[]; blocks: Occurrence[] }> {
  const txs: Occurrence[] = [];
  const blocks: Occurrence[] = [];
  for (let height = 1; height <= node.height; height++) {
    const record = (await node.committed(height))!;
    const blockPairs = indexedPairs([...(record.results.begin_block_events ?? []), ...(record.results.end_block_events ?? [])]);
    blocks.push({ id: String(height), attributes: attributes(blockPairs, [["block.height", String(height)]]) });
    for (const [index, result] of (record.results.txs_results ?? []).entries()) {
      const found = await node.store.getMeta(Buffer.concat([Buffer.from("txpos/"), Buffer.from(positionHex(height, index), "hex")]));
      const hash = Buffer.from(found!).toString("hex").toUpperCase();
      txs.push({
        id: hash,
        attributes: attributes(indexedPairs(result.events), [
          ["tx.height", String(height)],
          ["tx.hash", hash],
        ]),
      });
    }
  }
  return { txs, blocks };
}

function positionHex(height: number, index: number): string {
  return height.toString(16).padStart(16, "0") + index.toString(16).padStart(8, "0");
}

function attributes(pairs: Array<[string, string]>, reserved: Array<[string, string]>): EventAttributes {
  const out = new Map<string, string[]>();
  for (const [key, value] of [...pairs, ...reserved]) out.set(key, [...(out.get(key) ?? []), value]);
  return out;
}

/** Every page of a search, walked with a small page size. */
async function allPages(search: (page: number) => Promise<{ ids: string[]; total: string }>): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let total = 0;
  for (let page = 1; ; page++) {
    const found = await search(page);
    total = Number(found.total);
    ids.push(...found.ids);
    if (ids.length >= total || found.ids.length === 0) return { ids, total };
  }
}

describe("tx_search and block_search over the event index", function () {
  this.timeout(60_000);
  let node: EmbeddedNode;
  let home: string;
  let addresses: string[];
  let signers: TestSigner[];

  before(async () => {
    ({ node, home, addresses } = await openDevNode({ accounts: 6 }));
    signers = await Promise.all(addresses.map((_, i) => testSigner(TEST_MNEMONIC, i)));
    const sequences = addresses.map(() => 0);
    const sendFrom = async (from: number, to: number, amount: string) =>
      node.checkTx(
        await directTx(signers[from]!, {
          messages: [send(addresses[from]!, addresses[to]!, amount)],
          sequence: (sequences[from] = sequences[from]! + 1) - 1,
          accountNumber: from,
        }),
      );
    // blocks of one, three and two transactions, an empty block, and a tx that sends twice
    await sendFrom(0, 1, "5");
    await node.produceBlock();
    await sendFrom(1, 2, "7");
    await sendFrom(2, 1, "12");
    await sendFrom(3, 1, "5");
    await node.produceBlock();
    await node.produceBlock();
    await sendFrom(0, 4, "300");
    await sendFrom(4, 1, "8");
    await node.produceBlock();
    const twice = await directTx(signers[5]!, {
      messages: [send(addresses[5]!, addresses[1]!, "9"), send(addresses[5]!, addresses[2]!, "10")],
      sequence: 0,
      accountNumber: 5,
    });
    await node.checkTx(twice);
    await node.produceBlock();
  });
  after(() => node?.close());

  const txQueries = () => [
    `transfer.recipient='${addresses[1]}'`,
    `transfer.recipient='${addresses[1]}' AND message.sender='${addresses[3]}'`,
    `message.sender='${addresses[0]}'`,
    `message.action='send'`,
    `message.action='send' AND tx.height > 3`,
    `transfer.recipient='${addresses[1]}' AND tx.height >= 3 AND tx.height <= 5`,
    `transfer.recipient='${addresses[1]}' AND tx.height < 4.5 AND tx.height > 1.5`,
    `transfer.recipient='${addresses[1]}' AND tx.height > 5 AND tx.height < 3`,
    `tx.height = 3`,
    `tx.height >= 3 AND tx.height < 6`,
    `tx.height <= 2.5`,
    `transfer.amount > 8`,
    `transfer.amount >= 8 AND transfer.recipient='${addresses[1]}'`,
    `transfer.recipient CONTAINS '${addresses[2]!.slice(0, 12)}'`,
    `transfer.sender EXISTS`,
    `transfer EXISTS AND tx.height > 4`,
    `nothing.here EXISTS`,
    `transfer.recipient='nobody'`,
    `transfer.recipient='${addresses[1]}' AND transfer.recipient='${addresses[2]}'`,
  ];

  it("finds what the query language's evaluator finds, on every page, in both orders", async () => {
    const { txs } = await model(node);
    expect(txs.length).to.equal(7);
    for (const query of txQueries()) {
      const wanted = txs.filter((tx) => new EventQuery(query).matches(tx.attributes)).map((tx) => tx.id);
      for (const order of ["asc", "desc"] as const) {
        const found = await allPages(async (page) => {
          const r = await searchTxs(node.store, query, page, 2, order);
          return { ids: r.txs.map((tx) => tx.hash), total: r.total_count };
        });
        expect(found, `${query} ${order}`).to.deep.equal({ ids: order === "asc" ? wanted : [...wanted].reverse(), total: wanted.length });
      }
    }
  });

  it("block_search finds what the evaluator finds, newest first by default", async () => {
    const { blocks } = await model(node);
    const queries = [
      "block.height > 2",
      "block.height = 4",
      "block.height >= 2 AND block.height <= 4",
      "mint.amount EXISTS",
      "mint.amount EXISTS AND block.height < 4",
    ];
    const anyIndexed = blocks.find((b) => b.attributes.size > 1);
    if (anyIndexed) {
      const [key, values] = [...anyIndexed.attributes].find(([k]) => k !== "block.height")!;
      queries.push(`${key}='${values[0]}'`, `${key}='${values[0]}' AND block.height > 2`);
    }
    for (const query of queries) {
      const wanted = blocks.filter((b) => new EventQuery(query).matches(b.attributes)).map((b) => b.id);
      for (const order of ["", "asc"]) {
        const found = await allPages(async (page) => {
          const r = await searchBlocks(node.store, node.height, query, page, 2, order);
          return { ids: r.blocks.map((b) => (b as { block: { header: { height: string } } }).block.header.height), total: r.total_count };
        });
        expect(found, `${query} ${order || "(default)"}`).to.deep.equal({ ids: order === "asc" ? wanted : [...wanted].reverse(), total: wanted.length });
      }
    }
  });

  it("refuses as the engine does: a page out of range, an order, a query", async () => {
    const query = `transfer.recipient='${addresses[1]}'`;
    const refusals: Array<[() => Promise<unknown>, string]> = [
      [() => searchTxs(node.store, query, 3, 30, "asc"), "page should be within [1, 1] range, given 3"],
      [() => searchTxs(node.store, query, 0, 30, "asc"), "page should be within [1, 1] range, given 0"],
      [() => searchTxs(node.store, "transfer.recipient='nobody'", 2, 30, "asc"), "page should be within [1, 1] range, given 2"],
      [() => searchTxs(node.store, query, 1, 30, "up"), "expected order_by to be either `asc` or `desc` or empty"],
      [() => searchBlocks(node.store, node.height, "block.height > 1", 1, 30, "sideways"), "expected order_by to be either `asc` or `desc` or empty"],
      [() => searchTxs(node.store, "transfer.recipient=x", 1, 30, "asc"), "parse error near equal"],
      [() => searchTxs(node.store, `a.b='${"x".repeat(600)}'`, 1, 30, "asc"), "maximum query length exceeded"],
    ];
    for (const [call, message] of refusals) {
      const error = await call().then(
        () => undefined,
        (err: Error) => err.message,
      );
      expect(error, message).to.include(message);
    }
  });

  it("indexes a store written before the index again when the node opens it", async () => {
    const query = `transfer.recipient='${addresses[1]}'`;
    const before = await searchTxs(node.store, query, 1, 100, "asc");
    await node.close();
    // take the index out, as a store of an earlier release lacks it
    const db = new ClassicLevel<Uint8Array, Uint8Array>(path.join(home, "data", "state.db"), { keyEncoding: "view", valueEncoding: "view" });
    const removed: Uint8Array[] = [];
    for await (const key of db.keys()) {
      const text = Buffer.from(key.subarray(0, 9)).toString("latin1");
      if (/^m(eve\/|evn\/|evc\/|beve\/|bevn\/|bevc\/|evindex)/.test(text)) removed.push(key);
    }
    expect(removed.length).to.be.above(10);
    await db.batch(removed.map((key) => ({ type: "del" as const, key })));
    await db.close();
    node = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "test", codec: new Codec() });
    expect(await searchTxs(node.store, query, 1, 100, "asc")).to.deep.equal(before);
    expect(before.txs.length).to.equal(5);
  });
});
