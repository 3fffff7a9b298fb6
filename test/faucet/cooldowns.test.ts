import { expect } from "chai";
import { Cooldowns, MAX_COOLDOWN_ENTRIES } from "../../src/faucet/cooldowns.js";

/** The faucet's cooldown table, with explicit times (no clock involved). */
describe("faucet cooldowns", () => {
  it("refuses an address until its cooldown has passed, and a released credit does not count", () => {
    const table = new Cooldowns(1000);
    expect(table.take("a", 0)).to.equal(true);
    expect(table.take("a", 999)).to.equal(false);
    expect(table.take("b", 999)).to.equal(true);
    expect(table.take("a", 1000)).to.equal(true);
    table.release("b");
    expect(table.take("b", 1001)).to.equal(true);
  });

  it(`keeps at most ${MAX_COOLDOWN_ENTRIES} addresses, forgetting the one credited longest ago`, () => {
    const table = new Cooldowns(60_000);
    for (let i = 0; i < MAX_COOLDOWN_ENTRIES; i++) expect(table.take(`addr${i}`, 0)).to.equal(true);
    expect(table.take("addr0", 1)).to.equal(false);
    expect(table.take("one more", 1)).to.equal(true); // addr0 is forgotten to make room
    expect(table.take("addr0", 2)).to.equal(true);
    expect(table.take("addr2", 2)).to.equal(false); // still remembered
  });
});
