import { expect } from "chai";
import path from "node:path";
import { ClassicLevel } from "classic-level";
import { CacheLayer } from "../../../src/node/store/cacheLayer.js";
import { VersionedStore } from "../../../src/node/store/versionedStore.js";
import { NodeTxKit } from "../../helpers/nodeTxKit.js";
import { send } from "../../helpers/txSigner.js";
import { tempDir } from "../../helpers/tempDir.js";

/**
 * A LevelDB iterator holds a snapshot and a read buffer in native memory until
 * it is closed: one left open by a reader that stopped early is never freed
 * (the database keeps it to close at its own close). These tests count the
 * iterators LevelDB has open, through abstract-level's resource hooks.
 */
const open = new Set<object>();
type Resources = { attachResource: (this: Resources, resource: object) => void; detachResource: (this: Resources, resource: object) => void };
const proto = ClassicLevel.prototype as unknown as Resources;
const { attachResource, detachResource } = proto;

describe("open LevelDB iterators", () => {
  before(() => {
    proto.attachResource = function (this: Resources, resource: object) {
      open.add(resource);
      attachResource.call(this, resource);
    };
    proto.detachResource = function (this: Resources, resource: object) {
      open.delete(resource);
      detachResource.call(this, resource);
    };
  });
  after(() => {
    proto.attachResource = attachResource;
    proto.detachResource = detachResource;
  });

  /** Until the iterators' close() calls have run (a close is asynchronous). */
  async function openIterators(): Promise<number> {
    for (let turn = 0; turn < 50 && open.size > 0; turn++) await new Promise((resolve) => setImmediate(resolve));
    return open.size;
  }

  const b = (text: string) => new TextEncoder().encode(text);

  describe("LevelDB iterators are closed when a reader stops early", () => {
    const dir = tempDir();
    let store: VersionedStore;
    let n = 0;

    beforeEach(async () => {
      store = await VersionedStore.open(path.join(dir, `db-${n++}`));
      const batch = store.begin();
      for (let i = 0; i < 50; i++) batch.set(b(`k/${String(i).padStart(3, "0")}`), b(`v${i}`));
      await store.commit(batch);
    });
    afterEach(() => store.close());

    // each row: the layers over the committed state, and how the reader stops
    const rows: Array<{ name: string; layers: number; pending: boolean; stop: "break" | "throw" | "return" }> = [
      { name: "a block's layer, the reader breaks after one entry", layers: 1, pending: false, stop: "break" },
      { name: "a transaction's layer over a block's, the reader breaks", layers: 2, pending: false, stop: "break" },
      { name: "a layer with pending writes, the reader breaks on one of them", layers: 1, pending: true, stop: "break" },
      { name: "the reader throws after one entry", layers: 2, pending: false, stop: "throw" },
      { name: "the reader returns from inside the loop", layers: 1, pending: true, stop: "return" },
    ];
    for (const row of rows) {
      it(row.name, async () => {
        let layer = new CacheLayer(store.reader());
        for (let i = 1; i < row.layers; i++) layer = layer.child();
        if (row.pending) layer.set(b("k/000"), b("pending"));
        const read = async (): Promise<string | undefined> => {
          for await (const [key] of layer.iterate(b("k/"))) {
            if (row.stop === "throw") throw new Error("stop");
            if (row.stop === "return") return new TextDecoder().decode(key);
            break;
          }
          return undefined;
        };
        for (let i = 0; i < 20; i++) await read().catch((err: Error) => expect(err.message).to.equal("stop"));
        expect(await openIterators()).to.equal(0);
      });
    }

    it("a reader that reads to the end leaves none open either", async () => {
      const layer = new CacheLayer(store.reader()).child();
      let count = 0;
      for await (const _entry of layer.iterate(b("k/"))) count++;
      expect(count).to.equal(50);
      expect(await openIterators()).to.equal(0);
    });
  });

  describe("blocks of bank sends leave no LevelDB iterator open", function () {
    this.timeout(180_000); // a development chain's genesis and six blocks, on a loaded machine
    let kit: NodeTxKit;
    before(async () => {
      kit = await NodeTxKit.open(6);
    });
    after(() => kit.close());

    it("sends and multi-sends, each in its block, then queries", async () => {
      const [from, ...to] = kit.addresses as [string, ...string[]];
      const multiSend = {
        typeUrl: "/core.bank.v1beta1.MsgMultiSend",
        value: {
          inputs: [{ address: from, coins: [{ denom: "uhub", amount: String(to.length) }] }],
          outputs: to.map((address) => ({ address, coins: [{ denom: "uhub", amount: "1" }] })),
        },
      };
      for (let i = 0; i < 6; i++) {
        const delivered = await kit.deliver(0, [i % 2 === 0 ? multiSend : send(from, to[0]!, "1")]);
        expect(delivered.code, delivered.log).to.equal(0);
      }
      expect(await kit.balance(to[0]!)).to.be.a("bigint");
      expect(await openIterators()).to.equal(0);
    });
  });
});
