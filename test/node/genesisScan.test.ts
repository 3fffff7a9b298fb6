import { expect } from "chai";
import { parseChunk, scanGenesis } from "../../src/node/genesisScan.js";

const doc = (accounts: unknown[], balances: unknown[]) => ({
  genesis_time: "2024-01-01T00:00:00Z",
  chain_id: "c",
  app_state: { auth: { params: { x: "[,]" }, accounts }, bank: { balances, supply: [] }, other: { list: [1, 2] } },
  tail: ["a"],
});

/** The document put back together from the skeleton and the chunks, as the import reads it. */
function reassembled(bytes: Buffer, chunkEntries: number, minBytes: number): unknown {
  const scanned = scanGenesis(bytes, chunkEntries, minBytes);
  expect(scanned).to.not.equal(undefined);
  const skeleton = JSON.parse(scanned!.skeleton) as { app_state: Record<string, Record<string, unknown[]>> };
  for (const list of scanned!.lists) {
    expect(skeleton.app_state[list.module]![list.field]).to.deep.equal([]);
    const entries = list.chunks.flatMap((chunk) => {
      expect(chunk.entries).to.be.at.most(chunkEntries);
      return parseChunk(bytes, chunk)!;
    });
    expect(entries.length).to.equal(list.entries);
    skeleton.app_state[list.module]![list.field] = entries;
  }
  return skeleton;
}

describe("genesis scan: app_state's long lists cut into chunks of whole entries", () => {
  it("gives back the document JSON.parse gives, with strings holding brackets, commas, quotes and escapes", () => {
    const accounts = Array.from({ length: 23 }, (_, i) => ({ address: `a${i}",[]{}\\\\"`, n: i, nested: [{ x: [i, i] }], u: "é✓" }));
    const balances = Array.from({ length: 7 }, (_, i) => (i % 2 ? { address: `b${i}` } : [i, null, true]));
    const text = JSON.stringify(doc(accounts, balances), null, 1);
    expect(reassembled(Buffer.from(text), 5, 0)).to.deep.equal(JSON.parse(text));
  });

  it("cuts lists of at least minBytes only, and counts empty and one-entry lists right", () => {
    const text = JSON.stringify(doc([], [{ a: 1 }]));
    const scanned = scanGenesis(Buffer.from(text), 5, 0)!;
    expect(scanned.lists.map((l) => [l.module, l.field, l.entries])).to.deep.equal([
      ["auth", "accounts", 0],
      ["bank", "balances", 1],
      ["bank", "supply", 0],
      ["other", "list", 2],
    ]);
    expect(scanGenesis(Buffer.from(text), 5, 10)!.lists.map((l) => l.field)).to.deep.equal([]);
  });

  it("gives up (the caller parses whole, for JSON.parse's error) on malformed or ambiguous documents", () => {
    for (const text of [
      '{"app_state": {"auth": {"accounts": [1, 2}}}', // a bracket closed by the wrong kind
      '{"app_state": {"auth": {"accounts": ["open]}}}', // a string never closed
      '{"app_state": {"auth": {"accounts": [1]}}', // not closed
      '{"app_state": {"auth": {"accounts": [1]}, "auth": {}}}', // a module twice: JSON.parse keeps the last
    ]) {
      expect(scanGenesis(Buffer.from(text), 5, 0), text).to.equal(undefined);
    }
  });

  it("refuses a chunk that is not exactly its entries (a trailing comma, an empty entry)", () => {
    for (const text of ['{"app_state": {"auth": {"accounts": [1, 2,]}}}', '{"app_state": {"auth": {"accounts": [1,, 2]}}}']) {
      const bytes = Buffer.from(text);
      const scanned = scanGenesis(bytes, 5, 0);
      const parsed = scanned?.lists[0]?.chunks.map((chunk) => parseChunk(bytes, chunk));
      expect(parsed?.includes(undefined), text).to.equal(true);
    }
  });
});
