import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { SORT_STEP, sortInSteps } from "../../../src/node/store/sortInSteps.js";

describe("sorting in steps", () => {
  it("sorts as Array.prototype.sort does, over several runs, counting each step", async () => {
    const strings = Array.from({ length: 2 * SORT_STEP + 123 }, (_, i) => (i % 7 === 0 ? "same" : randomBytes(6).toString("hex")));
    const expected = [...strings].sort();
    const steps: number[] = [];
    const sorted = await sortInSteps(strings, (n) => steps.push(n));
    expect(sorted).to.deep.equal(expected);
    expect(Math.max(...steps)).to.be.at.most(SORT_STEP);
    expect(steps.slice(0, 3).reduce((a, b) => a + b, 0)).to.equal(strings.length); // the runs
  });

  it("sorts an empty list and a list of one", async () => {
    expect(await sortInSteps([])).to.deep.equal([]);
    expect(await sortInSteps(["a"])).to.deep.equal(["a"]);
  });
});
