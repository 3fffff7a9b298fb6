import { expect } from "chai";
import { parseDec } from "../../../../src/codec/decimal.js";
import { decQuo, feeFactor, issueFeeAmount, mintFeeAmount, tokenFees, toMinCoin } from "../../../../src/node/modules/token/fees.js";

// round2((ln(n)/ln 3)^4) for n = 3..64, computed independently (Python: '%.2f' % math.pow(math.log(n)/math.log(3), 4)).
const FACTORS =
  "1.00,2.54,4.61,7.08,9.84,12.84,16.00,19.30,22.70,26.17,29.71,33.30,36.92,40.57,44.23,47.91,51.60,55.29,58.98,62.67,66.35,70.03,73.70,77.35,81.00,84.63,88.26,91.86,95.46,99.04,102.60,106.15,109.69,113.20,116.71,120.19,123.66,127.12,130.55,133.98,137.38,140.77,144.15,147.50,150.85,154.17,157.48,160.78,164.06,167.32,170.57,173.81,177.03,180.23,183.43,186.60,189.76,192.91,196.05,199.17,202.27,205.37".split(
    ",",
  );

const symbolOfLength = (n: number) => "a".repeat(n);
const HUB = { symbol: "hub", min_unit: "uhub", scale: 6 };
const DEFAULT_PARAMS = { baseFeeAmount: 60000n, baseFeeDenom: "hub", mintTokenFeeRatio: parseDec("0.1") };

describe("token fee formula", () => {
  it("rounds the fee factor of every valid symbol length to two decimals as the real float64 formatting does", () => {
    FACTORS.forEach((factor, i) => expect(feeFactor(symbolOfLength(i + 3)), `length ${i + 3}`).to.equal(parseDec(factor)));
  });

  it("counts the symbol in bytes and refuses an empty one", () => {
    expect(feeFactor("abcd")).to.equal(parseDec("2.54"));
    expect(() => feeFactor("")).to.throw("greater than 0");
  });

  it("divides the base fee by the factor and truncates: worked examples with the default 60000 base fee", () => {
    const expected: Array<[string, bigint]> = [
      ["hub", 60000n], // 60000 / 1.00
      ["gold", 23622n], // 60000 / 2.54 = 23622.04...
      ["kitty", 13015n], // 60000 / 4.61 = 13015.18...
      ["silver", 8474n], // 60000 / 7.08 = 8474.57...
      ["abcdefghi", 3750n], // 60000 / 16.00
      ["abcdefghij", 3108n], // 60000 / 19.30 = 3108.80...
      [symbolOfLength(64), 292n], // 60000 / 205.37 = 292.15...
    ];
    for (const [symbol, fee] of expected) expect(issueFeeAmount(symbol, 60000n), symbol).to.equal(fee);
  });

  it("charges at least 1 when the quotient is 1 or less", () => {
    expect(issueFeeAmount(symbolOfLength(64), 100n)).to.equal(1n); // 0.48...
    expect(issueFeeAmount("abcdefghi", 16n)).to.equal(1n); // exactly 1
    expect(issueFeeAmount("abcdefghi", 32n)).to.equal(2n);
    expect(issueFeeAmount("abc", 0n)).to.equal(1n);
  });

  it("takes the mint fee as the truncated product of the issue fee and the ratio", () => {
    expect(mintFeeAmount("hub", 60000n, parseDec("0.1"))).to.equal(6000n);
    expect(mintFeeAmount("gold", 60000n, parseDec("0.1"))).to.equal(2362n); // 2362.2
    expect(mintFeeAmount("gold", 60000n, parseDec("0.15"))).to.equal(3543n); // 3543.3
    expect(mintFeeAmount(symbolOfLength(64), 100n, parseDec("0.1"))).to.equal(0n); // 1 × 0.1
  });

  it("converts a fee in the fee token's symbol to its min unit, and leaves a min-unit fee as it is", () => {
    expect(toMinCoin(HUB, "hub", 23622n)).to.deep.equal({ denom: "uhub", amount: "23622000000" });
    expect(toMinCoin(HUB, "uhub", 23622n)).to.deep.equal({ denom: "uhub", amount: "23622" });
    expect(toMinCoin({ symbol: "dog", min_unit: "mdog", scale: 3 }, "dog", 7n)).to.deep.equal({ denom: "mdog", amount: "7000" });
    expect(() => toMinCoin(HUB, "ucat", 1n)).to.throw("token not match");
  });

  it("answers the Fees query's issue and mint fees in the min unit", () => {
    expect(tokenFees("gold", DEFAULT_PARAMS, HUB)).to.deep.equal({
      issueFee: { denom: "uhub", amount: "23622000000" },
      mintFee: { denom: "uhub", amount: "2362000000" },
    });
    expect(tokenFees("abc", { ...DEFAULT_PARAMS, baseFeeDenom: "uhub" }, HUB)).to.deep.equal({
      issueFee: { denom: "uhub", amount: "60000" },
      mintFee: { denom: "uhub", amount: "6000" },
    });
  });

  it("divides decimals as sdk.Dec.Quo: the 18th fraction digit is rounded half to even", () => {
    const two = parseDec("2");
    expect(decQuo(1n, two)).to.equal(0n); // 0.5e-18 → 0 (even)
    expect(decQuo(3n, two)).to.equal(2n); // 1.5e-18 → 2 (even)
    expect(decQuo(parseDec("1"), parseDec("3"))).to.equal(333_333_333_333_333_333n);
    expect(decQuo(parseDec("2"), parseDec("3"))).to.equal(666_666_666_666_666_667n);
  });
});
