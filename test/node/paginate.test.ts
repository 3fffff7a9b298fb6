import { expect } from "chai";
import path from "node:path";
import { paginate, type PageRequest } from "../../src/node/abci/paginate.js";
import { ModuleReader, utf8 } from "../../src/node/store/moduleStore.js";
import { VersionedStore } from "../../src/node/store/versionedStore.js";
import { tempDir } from "../helpers/tempDir.js";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const KEYS = 3000;
const name = (i: number) => `a/${String(i).padStart(4, "0")}`;
/** Every third entry is dropped by the select (a filter, whose dropped entries do not count). */
const kept = (i: number) => i % 3 !== 1;

/** The page the rules of types/query/pagination.go give over the model: keys relative to the prefix "a/". */
function expected(request: PageRequest): { items: string[]; total: number; nextKey?: string } {
  const all = [...Array(KEYS).keys()].filter(kept).map((i) => name(i).slice(2));
  const start = request.key ? all.findIndex((k) => k >= text(request.key!)) : 0;
  const from = start < 0 ? all.length : start;
  let limit = Number(request.limit ?? 0);
  let countTotal = request.count_total ?? false;
  if (limit === 0) {
    limit = 100;
    countTotal = true;
  }
  const offset = Number(request.offset ?? 0);
  const begin = request.key ? from : offset;
  const items = all.slice(begin, begin + limit);
  return { items, total: !request.key && countTotal ? all.length : 0, nextKey: all[begin + limit] };
}

describe("pagination over kept and unkept reads", () => {
  let store: VersionedStore;

  before(async () => {
    store = await VersionedStore.open(path.join(tempDir(), "db"));
    const batch = store.begin();
    for (let i = 0; i < KEYS; i++) batch.set(utf8(`m/${name(i)}`), utf8(String(i)));
    await store.commit(batch);
  });
  after(() => store.close());

  it("gives the same pages read from LevelDB, from kept reads that hold part of the range, and from kept reads that hold all of it", async () => {
    const requests: PageRequest[] = [
      { limit: 10 },
      { limit: 10, count_total: true },
      {},
      { offset: 40, limit: 25 },
      { key: utf8("0777"), limit: 30 },
      { key: utf8("2990"), limit: 30 },
      { key: utf8("0999"), limit: 5 },
      { offset: 1990, limit: 10 },
    ];
    const page = async (request: PageRequest) => {
      const reader = new ModuleReader(store.reader(store.latestVersion, { keepsReads: true }), "m");
      const got = await paginate(reader, utf8("a/"), request, (key, value) => (kept(Number(text(value))) ? text(key) : undefined));
      const next = got.pagination.next_key as Uint8Array | undefined;
      return { items: got.items, total: Number(got.pagination.total), nextKey: next && text(next) };
    };
    // Each pass keeps more of the range (a read keeps a thousand entries from where it starts), so the
    // same requests meet nothing kept, then part of the range kept, then all of it.
    for (let pass = 0; pass < 4; pass++) {
      for (const request of requests) expect(await page(request), `pass ${pass}: ${JSON.stringify(request)}`).to.deep.equal(expected(request));
    }
  });
});
