import { expect } from "chai";
import { MAX_SNAPSHOTS, Snapshots } from "../../src/node/chain/snapshots.js";

const at = (height: number) => ({ height, mempool: [], clockOffsetMs: 0 });

describe("snapshots table (ids, forgetting later ones, the bound)", () => {
  it("gives ids from 1 up; forgetting from an id drops it and every later one, keeps the earlier", () => {
    const snapshots = new Snapshots();
    expect(snapshots.everTaken).to.equal(false);
    const ids = [5, 7, 9].map((h) => snapshots.take(at(h)));
    expect(ids).to.deep.equal([1, 2, 3]);
    expect(snapshots.lowestHeight).to.equal(5);
    snapshots.forgetFrom(2);
    expect(snapshots.get(1)?.height).to.equal(5);
    expect(snapshots.get(2)).to.equal(undefined);
    expect(snapshots.get(3)).to.equal(undefined);
    expect(snapshots.take(at(6))).to.equal(4); // ids are never given twice
    snapshots.forgetFrom(1);
    expect(snapshots.lowestHeight).to.equal(undefined);
    expect(snapshots.everTaken).to.equal(true);
  });

  it(`keeps at most ${MAX_SNAPSHOTS}: one more forgets the oldest`, () => {
    const snapshots = new Snapshots();
    for (let i = 0; i <= MAX_SNAPSHOTS; i++) snapshots.take(at(10 + i));
    expect(snapshots.get(1)).to.equal(undefined);
    expect(snapshots.get(2)?.height).to.equal(11);
    expect(snapshots.get(MAX_SNAPSHOTS + 1)?.height).to.equal(10 + MAX_SNAPSHOTS);
    expect(snapshots.lowestHeight).to.equal(11);
  });
});
