import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { ReplicaStamp } from "../../../src/node/store/replicaStamp.js";
import { tempDir } from "../../helpers/tempDir.js";

/** The stamp of the workers' LMDB copy (src/node/store/replicaStamp.ts): which write of the copy is the latest. */
describe("the stamp of the workers' copy of the state", () => {
  const copy = () => path.join(tempDir("chain-rest-stamp-"), "workers-state.lmdb");

  it("gives a reader the sequence the node wrote last, and nothing before the first", () => {
    const lmdbPath = copy();
    const writer = ReplicaStamp.create(lmdbPath);
    const reader = ReplicaStamp.open(lmdbPath)!;
    expect(reader.read(), "no write yet").to.equal(undefined);
    writer.write(1);
    expect(reader.read()).to.equal(1);
    writer.write(2 ** 40 + 7);
    expect(reader.read()).to.equal(2 ** 40 + 7);
    writer.close();
    reader.close();
  });

  it("takes a write met half done (the two words disagree) for unknown", () => {
    const lmdbPath = copy();
    const writer = ReplicaStamp.create(lmdbPath);
    writer.write(5);
    const bytes = fs.readFileSync(ReplicaStamp.fileOf(lmdbPath));
    bytes.writeBigUint64LE(6n, 0); // the first word of the next write, the second still the last one's
    fs.writeFileSync(ReplicaStamp.fileOf(lmdbPath), bytes);
    const reader = ReplicaStamp.open(lmdbPath)!;
    expect(reader.read()).to.equal(undefined);
    writer.write(6);
    expect(reader.read()).to.equal(6);
    writer.close();
    reader.close();
  });

  it("is absent for a copy that has none (its reader then keeps nothing)", () => {
    expect(ReplicaStamp.open(copy())).to.equal(undefined);
  });
});
