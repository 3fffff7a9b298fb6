import { expect } from "chai";
import { NodeRpcError } from "../../src/client/chainClient.js";
import { RewritableHeights, type DevChainStatus } from "../../src/client/rewritableHeights.js";

/** The decisions of RewritableHeights from the answers of the node's dev_chain_status (given in order). */
describe("RewritableHeights: which pinned heights a revert may change", () => {
  const asking = (answers: Array<DevChainStatus | Error>) => {
    let calls = 0;
    const heights = new RewritableHeights(async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    });
    return { heights, calls: () => calls };
  };

  it("no snapshot yet: heights up to the latest are final without asking again; a higher one asks", async () => {
    const { heights, calls } = asking([
      { latest_block_height: "10", snapshots_taken: false },
      { latest_block_height: "12", snapshots_taken: true },
    ]);
    expect(await heights.rewritable(10)).to.equal(false);
    expect(await heights.rewritable(3)).to.equal(false);
    expect(calls()).to.equal(1);
    expect(await heights.rewritable(11)).to.equal(true);
    expect(calls()).to.equal(2);
    expect(await heights.rewritable(3)).to.equal(true); // once a snapshot was taken, no height is final
    expect(calls()).to.equal(2);
  });

  it("a node without the method (Method not found) never reverts; a failed call decides only that answer", async () => {
    const real = asking([new NodeRpcError(-32601, "Method not found", undefined)]);
    expect(await real.heights.rewritable(5)).to.equal(false);
    expect(await real.heights.rewritable(500)).to.equal(false);
    expect(real.calls()).to.equal(1);
    const flaky = asking([new Error("connection refused"), { latest_block_height: "9", snapshots_taken: false }]);
    expect(await flaky.heights.rewritable(5)).to.equal(true);
    expect(await flaky.heights.rewritable(5)).to.equal(false);
    expect(flaky.calls()).to.equal(2);
  });

  it("concurrent answers share one call", async () => {
    const { heights, calls } = asking([{ latest_block_height: "7", snapshots_taken: false }]);
    expect(await Promise.all([1, 2, 3, 4].map((h) => heights.rewritable(h)))).to.deep.equal([false, false, false, false]);
    expect(calls()).to.equal(1);
  });
});
