import { expect } from "chai";
import path from "node:path";
import { VersionedStore } from "../../src/node/store/versionedStore.js";
import { decodeVersioned, encodeVersioned } from "../../src/node/store/keyEncoding.js";
import { tempDir } from "../helpers/tempDir.js";

const b = (text: string) => new TextEncoder().encode(text);
const t = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

async function entries(store: VersionedStore, version: number, prefix: string, start?: string): Promise<string[]> {
  const out: string[] = [];
  for await (const [k, v] of store.reader(version).iterate(b(prefix), start ? b(start) : undefined)) out.push(`${t(k)}=${t(v)}`);
  return out;
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
    for (const [k, v] of Object.entries(writes)) v === null ? batch.delete(b(k)) : batch.set(b(k), b(v));
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
});
