import { expect } from "chai";
import { sha256 } from "@noble/hashes/sha2.js";
import { searchTxs } from "../../src/node/chain/txSearch.js";
import { getIndexedTx } from "../../src/node/chain/txIndex.js";
import { UnknownSnapshotError } from "../../src/node/chain/snapshots.js";
import { openDevNode } from "../helpers/devNode.js";
import { NodeTxKit } from "../helpers/nodeTxKit.js";
import { send } from "../helpers/txSigner.js";

/** snapshot and revert on an in-process node: the event index, pruning held by snapshots, the clock. */
describe("dev chain snapshots in the node", function () {
  this.timeout(120_000);

  it("the event index after a revert: searches find kept heights only, and new occurrences number on from there", async () => {
    const kit = await NodeTxKit.open(6);
    try {
      const { node } = kit;
      const recipient = kit.addresses[5]!;
      const query = `transfer.recipient='${recipient}'`;
      const found = async () => (await searchTxs(node.store, query, 1, 30)).txs.map((tx) => Number(tx.height));
      const a = await kit.deliver(1, [send(kit.addresses[1]!, recipient, "1")]);
      const { id } = await node.snapshot();
      const b = await kit.deliver(2, [send(kit.addresses[2]!, recipient, "2")]);
      await kit.deliver(3, [send(kit.addresses[3]!, recipient, "3")]);
      expect(await found()).to.have.length(3);
      const forgotten = (await node.committed(b.height))!.block.block.data.txs!;
      expect(await getIndexedTx(node.store, sha256(Buffer.from(forgotten[0]!, "base64")))).to.not.equal(undefined);

      await node.revert(id);
      expect(await found()).to.deep.equal([a.height]);
      expect((await searchTxs(node.store, query, 1, 30)).total_count).to.equal("1");
      expect(await searchTxs(node.store, `tx.height=${b.height}`, 1, 30)).to.deep.include({ total_count: "0" });
      expect(forgotten).to.have.length(1);
      expect(await getIndexedTx(node.store, sha256(Buffer.from(forgotten[0]!, "base64")))).to.equal(undefined);

      const d = await kit.deliver(4, [send(kit.addresses[4]!, recipient, "4")]);
      expect(d.height).to.equal(a.height + 1); // the first forgotten height, written again
      expect(await found()).to.deep.equal([a.height, d.height]);
      expect((await searchTxs(node.store, query, 2, 1)).txs.map((tx) => Number(tx.height))).to.deep.equal([d.height]); // page 2 of 1: by ordinal
    } finally {
      await kit.close();
    }
  });

  it("pruning keeps the heights a snapshot needs, and resumes once the snapshot is reverted to", async () => {
    const { node } = await openDevNode({ keepRecent: 5 });
    try {
      await node.advanceBlocks(10);
      expect(node.store.earliestVersion).to.equal(node.height - 4);
      const { id, height } = await node.snapshot();
      await node.advanceBlocks(20);
      expect(node.store.earliestVersion).to.be.at.most(height);
      await node.revert(id);
      expect(node.height).to.equal(height);
      await node.advanceBlocks(10);
      expect(node.store.earliestVersion).to.equal(node.height - 4);
    } finally {
      await node.close();
    }
  });

  it("the clock goes back with the snapshot, block times never before the kept block's; an unknown id changes nothing", async () => {
    const { node } = await openDevNode();
    try {
      const { id, height } = await node.snapshot();
      const kept = Date.parse((await node.committed(height))!.block.block.header.time);
      node.clock.advance(30 * 86_400);
      await node.advanceBlocks(2);
      await node.revert(id);
      expect(node.clock.now().getTime()).to.be.below(kept + 30 * 86_400_000);
      await node.advanceBlocks(1);
      expect(Date.parse((await node.committed(height + 1))!.block.block.header.time)).to.be.greaterThan(kept);
      let refused: unknown;
      await node.revert(id).catch((err: unknown) => (refused = err));
      expect(refused).to.be.instanceOf(UnknownSnapshotError);
      expect(node.height).to.equal(height + 1);
    } finally {
      await node.close();
    }
  });
});
