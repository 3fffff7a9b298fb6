import { expect } from "chai";
import { Base64TextError, IntegerTextError, integerFromNumber, parseBase64, parseIntegerText, type IntegerType } from "../../src/codec/scalarText.js";

describe("scalar text: the one parser of integers and base64 for both route families", () => {
  const fails = (text: string, type: IntegerType, reason: "syntax" | "range") => {
    try {
      parseIntegerText(text, type);
    } catch (err) {
      expect(err, `${type} ${JSON.stringify(text)}`).to.be.instanceOf(IntegerTextError);
      expect((err as IntegerTextError).reason, `${type} ${JSON.stringify(text)}`).to.equal(reason);
      return;
    }
    expect.fail(`${type} ${JSON.stringify(text)} was accepted`);
  };

  it("reads each type's whole range in decimal", () => {
    expect(parseIntegerText("0", "uint64")).to.equal(0n);
    expect(parseIntegerText("18446744073709551615", "uint64")).to.equal(2n ** 64n - 1n);
    expect(parseIntegerText("-9223372036854775808", "int64")).to.equal(-(2n ** 63n));
    expect(parseIntegerText("9223372036854775807", "int64")).to.equal(2n ** 63n - 1n);
    expect(parseIntegerText("4294967295", "uint32")).to.equal(2n ** 32n - 1n);
    expect(parseIntegerText("-2147483648", "int32")).to.equal(-(2n ** 31n));
    expect(parseIntegerText("-0", "int64")).to.equal(0n);
  });

  it("refuses one past each end of the range as out of range", () => {
    fails("18446744073709551616", "uint64", "range");
    fails("9223372036854775808", "int64", "range");
    fails("-9223372036854775809", "int64", "range");
    fails("4294967296", "uint32", "range");
    fails("2147483648", "int32", "range");
    fails("-2147483649", "int32", "range");
  });

  it("refuses every other notation, and a sign on unsigned types", () => {
    for (const type of ["int32", "uint32", "int64", "uint64"] as const) {
      for (const text of ["", "-", "0x10", "0o7", "0b1", "010", "1e3", "1.0", "+1", " 1", "1 ", "\uFEFF1", "1_000", "١", "NaN", "Infinity"])
        fails(text, type, "syntax");
    }
    fails("-1", "uint64", "syntax");
    fails("-0", "uint32", "syntax");
  });

  it("takes JSON numbers only while they are exact integers", () => {
    expect(integerFromNumber(42, "uint64")).to.equal(42n);
    expect(() => integerFromNumber(2 ** 53, "uint64")).to.throw(IntegerTextError, "out of the uint64 range");
    expect(() => integerFromNumber(1.5, "int64")).to.throw(IntegerTextError, "is not a valid int64");
    expect(() => integerFromNumber(-1, "uint32")).to.throw(IntegerTextError, "is not a valid uint32");
  });

  it("reads standard and URL-safe base64, padded or not", () => {
    expect(Array.from(parseBase64("+/8="))).to.deep.equal([0xfb, 0xff]);
    expect(Array.from(parseBase64("+/8"))).to.deep.equal([0xfb, 0xff]);
    expect(Array.from(parseBase64("-_8="))).to.deep.equal([0xfb, 0xff]);
    expect(Array.from(parseBase64("-_8"))).to.deep.equal([0xfb, 0xff]);
    expect(Array.from(parseBase64(""))).to.deep.equal([]);
  });

  it("refuses mixed alphabets, impossible lengths, partial padding and anything else", () => {
    for (const text of ["A", "AAAAA", "+_8=", "QQ=", "QQ===", "=", "QQ==QQ==", "Q Q=", "QQ%3D", "\u00e9t\u00e9", "1e308", "__proto__"]) {
      expect(() => parseBase64(text), text).to.throw(Base64TextError);
    }
  });
});
