import { expect } from "chai";
import { isDecimalFloatText, isPlainIntegerText } from "../../src/codec/numberText.js";
import { goDurationSeconds } from "../../src/codec/goDuration.js";
import { decScaledTextOutOfRange, intTextOutOfRange } from "../../src/codec/sdkNumberRange.js";
import { JsonNumberText, parseJsonKeepingNumberForms } from "../../src/codec/json/jsonNumberForms.js";

describe("number text scanners", () => {
  const floats: Array<[string, boolean, boolean]> = [
    // text, with "+" allowed, accepted
    ["1", false, true],
    ["-1.5", false, true],
    [".5", false, true],
    ["5.", false, true],
    ["1e3", false, true],
    ["1.5E-3", false, true],
    ["+1", true, true],
    ["+1", false, false],
    [".", false, false],
    ["", false, false],
    ["-", false, false],
    ["1e", false, false],
    ["1e+", false, false],
    ["e3", false, false],
    ["1.5.5", false, false],
    [" 1", false, false],
    ["1 ", false, false],
    ["Infinity", false, false],
    ["0x10", false, false],
  ];
  for (const [text, plus, accepted] of floats) {
    it(`decimal float ${JSON.stringify(text)}${plus ? " (+ allowed)" : ""}: ${accepted ? "accepted" : "refused"}`, () => {
      expect(isDecimalFloatText(text, plus)).to.equal(accepted);
    });
  }

  const integers: Array<[string, boolean]> = [
    ["0", true],
    ["-0", true],
    ["10", true],
    ["-10", true],
    ["01", false],
    ["-", false],
    ["", false],
    ["1.0", false],
    ["1e3", false],
  ];
  for (const [text, accepted] of integers) {
    it(`integer text ${JSON.stringify(text)}: ${accepted ? "accepted" : "refused"}`, () => expect(isPlainIntegerText(text)).to.equal(accepted));
  }

  const durations: Array<[string, number | string]> = [
    ["10m", 600],
    ["1h30m", 5400],
    ["1.5s", 1.5],
    [".5s", 0.5],
    ["1.s", 1],
    ["-1m", -60],
    ["+5s", 5],
    ["0", 0],
    ["1500ms", 1.5],
    ["2\u00b5s", 2e-6],
    ["", 'time: invalid duration ""'],
    ["-", 'time: invalid duration "-"'],
    ["10", 'time: missing unit in duration "10"'],
    ["10x", 'time: unknown unit "x" in duration "10x"'],
    [".s", 'time: invalid duration ".s"'],
    ["1m 2s", 'time: unknown unit "m " in duration "1m 2s"'],
    ["9999999999h", 'time: invalid duration "9999999999h"'],
  ];
  for (const [text, expected] of durations) {
    it(`Go duration ${JSON.stringify(text)} → ${expected}`, () => {
      if (typeof expected === "number") expect(goDurationSeconds(text)).to.be.closeTo(expected, 1e-12);
      else expect(() => goDurationSeconds(text)).to.throw(expected);
    });
  }

  it("sdk.Int and sdk.Dec ranges: 256 and 316 bits, leading zeros and signs not counted", () => {
    const max = (2n ** 256n - 1n).toString();
    expect(intTextOutOfRange(max)).to.equal(false);
    expect(intTextOutOfRange((2n ** 256n).toString())).to.equal(true);
    expect(intTextOutOfRange("-" + max)).to.equal(false);
    expect(intTextOutOfRange("000" + max)).to.equal(false);
    expect(intTextOutOfRange("1" + "0".repeat(78))).to.equal(true);
    expect(decScaledTextOutOfRange((2n ** 316n - 1n).toString())).to.equal(false);
    expect(decScaledTextOutOfRange((2n ** 316n).toString())).to.equal(true);
  });

  it("JSON numbers in other forms than an integer's are kept as their text, in strings never", () => {
    const parsed = parseJsonKeepingNumberForms('{"a":1e-999,"b":"1.5","c":-0,"d":[2,2.0],"e":"x\\"1e5","a2":200e3}') as Record<string, unknown>;
    expect(parsed.a).to.be.instanceOf(JsonNumberText);
    expect(String(parsed.a)).to.equal("1e-999");
    expect(parsed.b).to.equal("1.5");
    expect(String(parsed.c)).to.equal("-0");
    expect((parsed.d as unknown[])[0]).to.equal(2);
    expect(String((parsed.d as unknown[])[1])).to.equal("2.0");
    expect(parsed.e).to.equal('x"1e5');
    expect(String(parsed.a2)).to.equal("200e3");
    expect(String((parseJsonKeepingNumberForms('{"a":1,"a":2.5}') as { a: unknown }).a)).to.equal("2.5"); // the last key, as JSON.parse
    expect(() => parseJsonKeepingNumberForms('{"a":1.5')).to.throw();
    expect(() => parseJsonKeepingNumberForms('{"a":01}')).to.throw();
  });
});
