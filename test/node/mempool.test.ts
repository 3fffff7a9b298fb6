import { expect } from "chai";
import { MAX_PENDING_TXS, Mempool, MempoolError } from "../../src/node/chain/mempool.js";

describe("mempool bound", () => {
  const tx = (i: number) => new TextEncoder().encode(`tx ${i}`);

  it("refuses a transaction once MAX_PENDING_TXS wait, with the engine's text, and takes them again after a block", () => {
    const mempool = new Mempool();
    for (let i = 0; i < MAX_PENDING_TXS; i++) mempool.add({ hash: mempool.admit(tx(i)), bytes: tx(i) });
    expect(() => mempool.admit(tx(MAX_PENDING_TXS)))
      .to.throw(MempoolError)
      .with.property("message")
      .that.matches(
        new RegExp(`^mempool is full: number of txs ${MAX_PENDING_TXS} \\(max: ${MAX_PENDING_TXS}\\), total txs bytes \\d+ \\(max: 1073741824\\)$`),
      );
    expect(mempool.take()).to.have.length(MAX_PENDING_TXS);
    expect(mempool.admit(tx(MAX_PENDING_TXS))).to.be.a("string");
  });
});
