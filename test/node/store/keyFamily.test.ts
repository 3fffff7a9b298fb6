import { expect } from "chai";
import path from "node:path";
import { fillBound, keyFamilyEnd } from "../../../src/node/store/keyFamily.js";
import { VersionedStore } from "../../../src/node/store/versionedStore.js";
import { tempDir } from "../../helpers/tempDir.js";

const b = (text: string) => Buffer.from(text, "latin1");
const text = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString("latin1") : undefined);

describe("key families (where a kept read stops)", () => {
  for (const [key, end] of [
    ["staking/\x21validator", "staking/\x22"],
    ["f" + "bank/\x02\x14address", "f" + "bank/\x03"], // a namespace byte before the module's name
    ["staking/\x50", "staking/\x51"],
    ["staking/", undefined], // a whole module's store: no family
    ["meta", undefined],
  ] as const) {
    it(`${JSON.stringify(key)} → ${JSON.stringify(end)}`, () => {
      expect(text(keyFamilyEnd(b(key)))).to.equal(end);
    });
  }

  it("a fill stops at the next kept range or at its family's end, whichever is first", () => {
    expect(text(fillBound(b("bank/\x02a"), b("bank/\x02c")))).to.equal("bank/\x02c");
    expect(text(fillBound(b("bank/\x02a"), b("bank/\x09")))).to.equal("bank/\x03");
    expect(text(fillBound(b("bank/\x02a"), undefined))).to.equal("bank/\x03");
    expect(text(fillBound(b("bank/"), b("bank/\x09")))).to.equal("bank/\x09");
  });

  describe("a query's scan at the latest and at an earlier height", () => {
    let store: VersionedStore;
    const validators = ["staking/\x21a", "staking/\x21b"];
    const historical = (height: number) => `staking/\x50${height}`;
    const LARGE = "v".repeat(4096); // a historical info: a whole validator set

    before(async () => {
      store = await VersionedStore.open(path.join(tempDir(), "db"));
      for (let version = 1; version <= 2; version++) {
        const batch = store.begin();
        if (version === 1) for (const key of validators) batch.set(b(key), b("validator"));
        for (let height = 1; height <= 20; height++) batch.set(b(historical(version * 100 + height)), b(LARGE));
        batch.set(b("staking/\x11power"), b("1"));
        await store.commit(batch);
      }
    });
    after(() => store.close());

    const scan = async (version: number, prefix: string) => {
      const keys: string[] = [];
      for await (const [key] of store.reader(version, { keepsReads: true }).iterate(b(prefix))) keys.push(text(key)!);
      return keys;
    };

    for (const version of [2, 1]) {
      it(`keeps the validators it read, not the historical infos after them (version ${version === 2 ? "latest" : "earlier"})`, async () => {
        const before = store.keptSize().scanBytes;
        expect(await scan(version, "staking/\x21")).to.deep.equal(validators);
        const kept = store.reader(version, { keepsReads: true }).keptUnder(b("staking/\x21"));
        expect(kept?.length, "the validators are answered from memory").to.equal(2);
        const added = store.keptSize().scanBytes - before;
        expect(added, "bytes kept by the scan").to.be.greaterThan(0).and.lessThan(LARGE.length);
        expect(store.reader(version, { keepsReads: true }).keptUnder(b(historical(0).slice(0, -1))), "historical infos are not kept").to.equal(undefined);
      });
    }

    it("a scan of the historical infos keeps its own family", async () => {
      expect(await scan(2, "staking/\x50")).to.have.length(40);
      expect(store.reader(2, { keepsReads: true }).keptUnder(b("staking/\x50"))).to.have.length(40);
      expect(store.reader(2, { keepsReads: true }).keptUnder(b("staking/\x11"))).to.equal(undefined);
    });
  });
});
