import { expect } from "chai";
import { DEC_ONE, decMul, decQuo, decQuoTruncate, decMulTruncate } from "../../../../src/node/modules/shared/decMath.js";

/** Runs the InitGenesis of bank and then of `modules` on an empty in-memory state. */

describe("sdk.Dec arithmetic", () => {
  it("rounds half to even in Mul and Quo, truncates in MulTruncate and QuoTruncate", () => {
    expect(decQuo(2n * DEC_ONE, 3n * DEC_ONE)).to.equal(666_666_666_666_666_667n);
    expect(decQuoTruncate(2n * DEC_ONE, 3n * DEC_ONE)).to.equal(666_666_666_666_666_666n);
    expect(decMul(1n, DEC_ONE / 2n)).to.equal(0n); // 0.5e-18 rounds to the even 0
    expect(decMul(3n, DEC_ONE / 2n)).to.equal(2n); // 1.5e-18 rounds to the even 2
    expect(decMulTruncate(3n, DEC_ONE / 2n)).to.equal(1n);
    expect(decMul(-3n, DEC_ONE / 2n)).to.equal(-2n);
  });
});
