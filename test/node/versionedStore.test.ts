import { expect } from "chai";
import path from "node:path";
import { ClassicLevel } from "classic-level";
import { VersionedStore } from "../../src/node/store/versionedStore.js";
import { decodeVersioned, encodeVersioned } from "../../src/node/store/keyEncoding.js";
import { tempDir } from "../helpers/tempDir.js";

const b = (text: string) => new TextEncoder().encode(text);
const t = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

/** A scan as block execution reads it, checked against the same scan as a query reads it (which may keep and reuse reads). */
async function entries(store: VersionedStore, version: number, prefix: string, start?: string): Promise<string[]> {
  const scan = async (keepsReads: boolean) => {
    const out: string[] = [];
    for await (const [k, v] of store.reader(version, { keepsReads }).iterate(b(prefix), start ? b(start) : undefined)) out.push(`${t(k)}=${t(v)}`);
    return out;
  };
  const plain = await scan(false);
  for (let ask = 0; ask < 2; ask++) expect(await scan(true), `a query's scan, ask ${ask + 1}`).to.deep.equal(plain);
  return plain;
}

describe("versioned LevelDB store", () => {
  const dir = tempDir();
  let store: VersionedStore;
  let n = 0;

  beforeEach(async () => {
    store = await VersionedStore.open(path.join(dir, `db-${n++}`));
  });
  afterEach(() => store.close());

  async function commit(writes: Record<string, string | null>): Promise<void> {
    const batch = store.begin();
    for (const [k, v] of Object.entries(writes)) {
      if (v === null) batch.delete(b(k));
      else batch.set(b(k), b(v));
    }
    await store.commit(batch);
  }

  it("encodes keys so that their order is the user keys' order, including keys with zero bytes", () => {
    const keys = [Uint8Array.of(1), Uint8Array.of(1, 0), Uint8Array.of(1, 0, 0), Uint8Array.of(1, 1), Uint8Array.of(2)];
    const encoded = keys.map((k) => encodeVersioned(k, 7));
    const sorted = [...encoded].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(sorted).to.deep.equal(encoded);
    for (const [i, e] of encoded.entries()) expect(decodeVersioned(e)).to.deep.equal({ key: keys[i], version: 7 });
  });

  it("answers every kept version with the state of that version", async () => {
    await commit({ "a/1": "x", "a/2": "y" });
    await commit({ "a/1": "x2", "a/3": "z" });
    await commit({ "a/2": null });
    expect(store.latestVersion).to.equal(3);
    expect(t(await store.reader(1).get(b("a/1")))).to.equal("x");
    expect(t(await store.reader(2).get(b("a/1")))).to.equal("x2");
    expect(await store.reader(3).get(b("a/2"))).to.equal(undefined);
    expect(await entries(store, 1, "a/")).to.deep.equal(["a/1=x", "a/2=y"]);
    expect(await entries(store, 2, "a/")).to.deep.equal(["a/1=x2", "a/2=y", "a/3=z"]);
    expect(await entries(store, 3, "a/")).to.deep.equal(["a/1=x2", "a/3=z"]);
  });

  it("iterates only the prefix, from a start key on", async () => {
    await commit({ "a/1": "1", "a/2": "2", "a/3": "3", "b/1": "other", a: "short" });
    expect(await entries(store, 1, "a/", "a/2")).to.deep.equal(["a/2=2", "a/3=3"]);
    expect(await entries(store, 1, "b/")).to.deep.equal(["b/1=other"]);
  });

  it("does not show a batch before it is committed", async () => {
    await commit({ k: "1" });
    const batch = store.begin();
    batch.set(b("k"), b("2"));
    expect(t(await store.reader().get(b("k")))).to.equal("1");
    await store.commit(batch);
    expect(t(await store.reader().get(b("k")))).to.equal("2");
  });

  it("prunes versions no kept height can read, and refuses heights below the kept range", async () => {
    await commit({ k: "v1", stable: "s" });
    await commit({ k: "v2" });
    await commit({ k: "v3" });
    await store.prune(3);
    expect(store.earliestVersion).to.equal(3);
    expect(() => store.reader(2)).to.throw(RangeError, "version 2 is not kept (kept: 3..3)");
    expect(t(await store.reader(3).get(b("k")))).to.equal("v3");
    expect(t(await store.reader(3).get(b("stable")))).to.equal("s"); // written at 1, still the value at 3
    expect(await entries(store, 3, "")).to.deep.equal(["k=v3", "stable=s"]);
  });

  it("keeps its versions across a reopen", async () => {
    await commit({ k: "v1" });
    await commit({ k: "v2" });
    const location = path.join(dir, `db-${n - 1}`);
    await store.close();
    store = await VersionedStore.open(location);
    expect(store.latestVersion).to.equal(2);
    expect(t(await store.reader(1).get(b("k")))).to.equal("v1");
  });

  it("names a store another opener holds (a second start on the same home)", async () => {
    const location = path.join(dir, `db-${n - 1}`);
    const error = await VersionedStore.open(location).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(error?.message)
      .to.match(/is open in another process/)
      .and.include(location);
  });

  describe("fast index (latest values in one lookup)", () => {
    const keys = ["a/1", "a/2", "a/2\u0000x", "a/3", "b/1", "b/2"];

    /** Every key's value and the prefix scans, as one comparable record. */
    async function snapshot(version: number): Promise<string[]> {
      const reader = store.reader(version);
      const out: string[] = [];
      for (const k of keys) out.push(`${k}=${t(await reader.get(b(k)))}`);
      for (const [prefix, start] of [
        ["", undefined],
        ["a/", undefined],
        ["a/", "a/2"],
        ["b/", undefined],
        ["c/", undefined],
      ] as const) {
        out.push(`scan ${prefix} ${start}: ${(await entries(store, version, prefix, start)).join(",")}`);
      }
      return out;
    }

    it("answers the latest version as the versions do, once a later version makes them the path", async () => {
      // Deterministic churn: sets, overwrites, deletes and re-creations over 12 versions.
      const seen: string[][] = [];
      for (let v = 1; v <= 12; v++) {
        const writes: Record<string, string | null> = {};
        keys.forEach((k, i) => {
          const step = (v * 7 + i * 3) % 5;
          if (step === 0) writes[k] = null;
          else if (step < 3) writes[k] = `${k}@${v}`;
        });
        await commit(writes);
        seen.push(await snapshot(v)); // read at the latest version: the fast index
      }
      await commit({ unrelated: "x" });
      for (let v = 1; v <= 12; v++) expect(await snapshot(v), `version ${v}`).to.deep.equal(seen[v - 1]); // the versions
    });

    it("keeps answering the version being read while the next one is committed", async () => {
      await commit({ k: "old", "p/1": "one" });
      const reader = store.reader(1);
      const batch = store.begin();
      batch.set(b("k"), b("new"));
      batch.delete(b("p/1"));
      const committed = store.commit(batch);
      expect(t(await reader.get(b("k")))).to.equal("old");
      expect(await entries(store, 1, "p/")).to.deep.equal(["p/1=one"]);
      await committed;
      expect(t(await reader.get(b("k")))).to.equal("old");
      expect(t(await store.reader().get(b("k")))).to.equal("new");
      expect(await entries(store, 2, "p/")).to.deep.equal([]);
    });

    it("is built from the versions when a store written without it is opened", async () => {
      await commit({ "a/1": "x", "a/2": "y" });
      await commit({ "a/1": "x2", "a/2": null, "a/3": "z" });
      const expected = await snapshot(2);
      const location = path.join(dir, `db-${n - 1}`);
      await store.close();
      // Remove the fast index and its marker, as a store of the earlier layout has neither.
      const db = new ClassicLevel<Uint8Array, Uint8Array>(location, { keyEncoding: "view", valueEncoding: "view" });
      await db.clear({ gte: b("f"), lt: b("g") });
      await db.del(b("mfast-index"));
      expect(await db.keys({ gte: b("f"), lt: b("g") }).all()).to.have.length(0);
      await db.close();
      store = await VersionedStore.open(location);
      expect(await snapshot(2)).to.deep.equal(expected);
      await commit({ "a/3": "z3" });
      expect(t(await store.reader(2).get(b("a/3")))).to.equal("z");
      expect(await entries(store, 3, "a/")).to.deep.equal(["a/1=x2", "a/3=z3"]);
    });

    it("carries a query's kept reads across commits, updated with each commit's writes", async () => {
      // Thousands of keys: queries keep several reads of up to a thousand entries, with gaps between them.
      const name = (i: number) => `k/${String(i).padStart(4, "0")}`;
      const first: Record<string, string> = {};
      for (let i = 0; i < 3000; i += 2) first[name(i)] = `v${i}`;
      await commit(first);
      const prefixes = ["k/0", "k/00", "k/01", "k/1", "k/12", "k/2", "k/25", "k/2998", "k/3"];
      const scanAll = async (version: number) => Promise.all(prefixes.map(async (p) => (await entries(store, version, p)).join(",")));
      const seen = [await scanAll(1)];
      for (let v = 2; v <= 5; v++) {
        // Deterministic writes in and between the kept reads: new keys, overwrites and deletions.
        const writes: Record<string, string | null> = {};
        for (let i = v; i < 3000; i += 37 + v) writes[name(i)] = i % 3 === 0 ? null : `v${i}@${v}`;
        await commit(writes);
        seen.push(await scanAll(v)); // at the latest version: the kept reads, updated by the commit
      }
      await commit({ unrelated: "x" });
      for (let v = 1; v <= 5; v++) expect(await scanAll(v), `version ${v}`).to.deep.equal(seen[v - 1]); // the versions
    });

    it("does not keep a query's read that began before a commit and ended after it", async () => {
      await commit({ "p/1": "one", "p/2": "two" });
      // The scan's LevelDB iterator (its snapshot: version 1) opens now; its first page is read after the commit.
      const begun = store.reader(1, { keepsReads: true }).iterate(b("p/"));
      await commit({ "p/1": "ONE" });
      const read: string[] = [];
      for await (const [k, v] of begun) read.push(`${t(k)}=${t(v)}`);
      expect(read).to.deep.equal(["p/1=one", "p/2=two"]);
      expect(await entries(store, 2, "p/")).to.deep.equal(["p/1=ONE", "p/2=two"]);
    });

    it("prunes old versions without touching the latest values", async () => {
      await commit({ k: "v1", gone: "g" });
      await commit({ k: "v2", gone: null });
      await commit({ other: "o" });
      await store.prune(3);
      expect(await entries(store, 3, "")).to.deep.equal(["k=v2", "other=o"]);
      await commit({ gone: "back" });
      await store.prune(4);
      expect(await entries(store, 4, "")).to.deep.equal(["gone=back", "k=v2", "other=o"]);
    });
  });

  describe("reads at earlier versions, kept as the latest's are", () => {
    /** A seeded generator (the test must fail the same way every run). */
    const random = (seed: number) => () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const name = (i: number) => `k/${String(i).padStart(4, "0")}`;

    it("answers every scan and key of an earlier version as a model of the writes does, read first or again, in any order", async () => {
      const next = random(7);
      const model: Array<Map<string, string>> = [new Map()]; // the state of each version
      for (let v = 1; v <= 6; v++) {
        const state = new Map(model[v - 1]);
        const writes: Record<string, string | null> = {};
        // thousands of keys the first time, then overwrites, deletions and new keys among them
        for (let i = 0; i < 4000; i++) {
          const r = next();
          if (v === 1 ? r < 0.6 : r < 0.08) writes[name(i)] = `${i}@${v}`;
          else if (v > 1 && r < 0.12) writes[name(i)] = null;
        }
        for (const [k, value] of Object.entries(writes)) {
          if (value === null) state.delete(k);
          else state.set(k, value);
        }
        await commit(writes);
        model.push(state);
      }
      await commit({ unrelated: "x" }); // every version above is now an earlier one
      const expected = (version: number, prefix: string) =>
        [...model[version]!.entries()]
          .filter(([k]) => k.startsWith(prefix))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, value]) => `${k}=${value}`);
      for (let ask = 0; ask < 300; ask++) {
        const version = 1 + Math.floor(next() * 6);
        const prefix = name(Math.floor(next() * 4000)).slice(0, 3 + Math.floor(next() * 4)); // k/, k/1, k/12, ... one key
        const scanned = await entries(store, version, prefix);
        expect(scanned, `version ${version}, prefix ${prefix}`).to.deep.equal(expected(version, prefix));
        const key = name(Math.floor(next() * 4000));
        expect(t(await store.reader(version, { keepsReads: true }).get(b(key))), `version ${version}, key ${key}`).to.equal(model[version]!.get(key));
      }
    });

    it("answers a kept earlier version alike after older ones are pruned", async () => {
      await commit({ "p/1": "one", "p/2": "two" });
      await commit({ "p/1": "ONE" });
      await commit({ "p/2": null });
      expect(await entries(store, 1, "p/")).to.deep.equal(["p/1=one", "p/2=two"]);
      expect(await entries(store, 2, "p/")).to.deep.equal(["p/1=ONE", "p/2=two"]);
      await store.prune(2);
      expect(() => store.reader(1)).to.throw(RangeError);
      expect(await entries(store, 2, "p/")).to.deep.equal(["p/1=ONE", "p/2=two"]);
    });
  });
});
