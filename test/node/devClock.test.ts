import { expect } from "chai";
import { Codec } from "../../src/codec/codec.js";
import { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { openDevNode } from "../helpers/devNode.js";

const TEN_DAYS_SECONDS = 10 * 86_400;

/** The dev node's clock: advance_time's offset reaches block times, and a restart continues from the last block's time. */
describe("dev clock", function () {
  this.timeout(60_000);

  it("moves block times by advance, and after a reopen keeps them at or after the last block's", async () => {
    const { node, home } = await openDevNode();
    const timeOf = async (n: EmbeddedNode) => Date.parse((await n.committed(n.height))!.block.block.header.time);
    const before = await timeOf(node);
    node.clock.advance(TEN_DAYS_SECONDS);
    await node.advanceBlocks(1);
    const advanced = await timeOf(node);
    expect(advanced - before).to.be.at.least(TEN_DAYS_SECONDS * 1000);
    await node.close();

    const reopened = await EmbeddedNode.open({ home, bech32Prefix: "hub", keepRecent: 100, moniker: "test", codec: new Codec() });
    try {
      // without the catch-up the clock would be the wall clock again, ten days behind the last block
      expect(reopened.clock.now().getTime()).to.be.at.least(advanced);
      await reopened.advanceBlocks(1);
      expect(await timeOf(reopened)).to.be.greaterThan(advanced);
    } finally {
      await reopened.close();
    }
  });
});
