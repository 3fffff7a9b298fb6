import { expect } from "chai";
import path from "node:path";
import { VersionedStore } from "../../src/node/store/versionedStore.js";
import { tempDir } from "../helpers/tempDir.js";

const b = (text: string) => new TextEncoder().encode(text);
const t = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : undefined);

/** The whole state at a version, as "key=value" lines: by a scan, and by point reads of every key ever written. */
async function stateAt(store: VersionedStore, version: number, keys: string[]): Promise<{ scan: string[]; points: string[] }> {
  const scan: string[] = [];
  for await (const [k, v] of store.reader(version, { keepsReads: true }).iterate(b("k"))) scan.push(`${t(k)}=${t(v)}`);
  const points: string[] = [];
  for (const key of keys) {
    const value = await store.reader(version).get(b(key));
    if (value) points.push(`${key}=${t(value)}`);
  }
  return { scan, points };
}

describe("versioned store: revert to an earlier version", () => {
  const dir = tempDir();
  let store: VersionedStore;
  let n = 0;
  const keys = ["k\u0000zero", "ka", "kb", "kc", "kd", "knew"];

  beforeEach(async () => {
    store = await VersionedStore.open(path.join(dir, `db-${n++}`));
  });
  afterEach(() => store.close());

  async function commit(writes: Record<string, string | null>, meta: Record<string, string> = {}): Promise<void> {
    const batch = store.begin();
    for (const [k, v] of Object.entries(writes)) {
      if (v === null) batch.delete(b(k));
      else batch.set(b(k), b(v));
    }
    for (const [k, v] of Object.entries(meta)) batch.putMeta(b(k), b(v));
    await store.commit(batch);
  }

  /** Versions 1..5: keys set, changed, deleted, set again, a key with a zero byte, one new at 5. */
  async function history(): Promise<void> {
    await commit({ ka: "1", kb: "1", "k\u0000zero": "z1" });
    await commit({ ka: "2", kc: "2" });
    await commit({ kb: null, kd: "3", "k\u0000zero": "z3" });
    await commit({ ka: "4", kb: "4", kc: null });
    await commit({ knew: "5", kd: null });
  }

  it("gives back the state of the target at the latest version: scans, point reads, and the earlier versions untouched", async () => {
    await history();
    const before = await Promise.all([1, 2, 3].map((v) => stateAt(store, v, keys)));
    // read at the latest version first, so the kept reads of the forgotten version are there to be dropped
    expect((await stateAt(store, 5, keys)).scan).to.include("knew=5");
    await store.revert(3);
    expect(store.latestVersion).to.equal(3);
    expect(await stateAt(store, 3, keys)).to.deep.equal(before[2]);
    expect(await stateAt(store, 2, keys)).to.deep.equal(before[1]);
    expect(await stateAt(store, 1, keys)).to.deep.equal(before[0]);
    expect(() => store.reader(4)).to.throw(RangeError);
  });

  it("writes the forgotten heights again, and a revert after that forgets the new ones", async () => {
    await history();
    await store.revert(2);
    await commit({ ka: "again3", kb: "again3" });
    expect((await stateAt(store, 3, keys)).scan).to.deep.equal(["k\u0000zero=z1", "ka=again3", "kb=again3", "kc=2"]);
    expect((await stateAt(store, 2, keys)).scan).to.deep.equal(["k\u0000zero=z1", "ka=2", "kb=1", "kc=2"]);
    await store.revert(2);
    expect((await stateAt(store, 2, keys)).scan).to.deep.equal(["k\u0000zero=z1", "ka=2", "kb=1", "kc=2"]);
  });

  it("deletes and writes back chain data with the revert, in the same batch", async () => {
    await commit({ ka: "1" }, { "block/1": "one" });
    await commit({ ka: "2" }, { "block/2": "two", count: "2" });
    await store.revert(1, [{ key: b("block/2") }, { key: b("count"), value: b("1") }]);
    expect(t(await store.getMeta(b("block/1")))).to.equal("one");
    expect(await store.getMeta(b("block/2"))).to.equal(undefined);
    expect(t(await store.getMeta(b("count")))).to.equal("1");
  });

  it("keeps its reverted state across a reopen", async () => {
    const where = path.join(dir, "reopened");
    await store.close();
    store = await VersionedStore.open(where);
    await history();
    await store.revert(3);
    const expected = await stateAt(store, 3, keys);
    await store.close();
    store = await VersionedStore.open(where);
    expect(store.latestVersion).to.equal(3);
    expect(await stateAt(store, 3, keys)).to.deep.equal(expected);
  });

  it("refuses a version below the kept range (pruned) or above the latest, changing nothing", async () => {
    await history();
    await store.prune(3);
    expect(store.revertableFrom).to.equal(3);
    await expectRefused(() => store.revert(2), "cannot revert to version 2: this store can go back to versions 3 to 5");
    await expectRefused(() => store.revert(6), "cannot revert to version 6");
    expect(store.latestVersion).to.equal(5);
    expect((await stateAt(store, 5, keys)).scan).to.deep.equal(["k\u0000zero=z3", "ka=4", "kb=4", "knew=5"]);
    await store.revert(3); // the lowest kept version is reachable, and pruning left it whole
    expect((await stateAt(store, 3, keys)).scan).to.deep.equal(["k\u0000zero=z3", "ka=2", "kc=2", "kd=3"]);
  });

  it("prunes after a revert as before: the change log of a new key has no superseded version to drop", async () => {
    await history();
    await store.revert(4);
    await commit({ knew: "5b" });
    await commit({ knew: "6" });
    await store.prune(6);
    expect((await stateAt(store, 6, keys)).scan).to.deep.equal(["k\u0000zero=z3", "ka=4", "kb=4", "kd=3", "knew=6"]);
  });
});

async function expectRefused(run: () => Promise<unknown>, message: string): Promise<void> {
  try {
    await run();
  } catch (err) {
    expect(err).to.be.instanceOf(RangeError);
    expect((err as Error).message).to.include(message);
    return;
  }
  expect.fail("the revert was not refused");
}
