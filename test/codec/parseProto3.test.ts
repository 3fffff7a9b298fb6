import { expect } from "chai";
import Long from "long";
import { JsonInputError } from "../../src/codec/json/parseProto3.js";
import { testCodec } from "../helpers/testCodec.js";

describe("proto3 JSON parser (request bodies and query values)", () => {
  const codec = testCodec();
  const Sample = codec.type("test.sample.Sample");
  const parse = (json: unknown) => codec.parser.parse(Sample, json);
  const roundTrip = (json: unknown) => codec.renderer.render(Sample, Sample.decode(Sample.encode(parse(json)).finish()));

  it("accepts proto names and camelCase names", () => {
    expect(roundTrip({ required_inner: { name: "a" } }).required_inner).to.deep.equal({ name: "a", count: "0" });
    expect(roundTrip({ requiredInner: { name: "b" } }).required_inner).to.deep.equal({ name: "b", count: "0" });
  });

  it("accepts 64-bit integers as decimal strings or numbers", () => {
    expect((parse({ ubig: "18446744073709551615" }).ubig as Long).toString()).to.equal("18446744073709551615");
    expect((parse({ big: 42 }).big as Long).toString()).to.equal("42");
    expect((parse({ big: "-7" }).big as Long).toString()).to.equal("-7");
    expect((parse({ big: "-9223372036854775808" }).big as Long).toString()).to.equal("-9223372036854775808");
  });

  it("rejects integers outside their proto type: other notations, a sign on unsigned types, out of range, naming the field", () => {
    expect(() => parse({ ubig: "abc" })).to.throw(JsonInputError, 'ubig: "abc" is not a valid uint64');
    for (const text of ["0x10", "1e3", " 5", "5 ", "\uFEFF5", "+5", "05", "-0", "-1", "", "1_000"]) {
      expect(() => parse({ ubig: text }), text).to.throw(JsonInputError, `ubig: ${JSON.stringify(text)} is not a valid uint64`);
    }
    expect(() => parse({ ubig: "18446744073709551616" })).to.throw(JsonInputError, 'ubig: "18446744073709551616" is out of the uint64 range');
    expect(() => parse({ big: "9223372036854775808" })).to.throw(JsonInputError, 'big: "9223372036854775808" is out of the int64 range');
    expect(() => parse({ ubig: 2 ** 64 })).to.throw(JsonInputError, "is out of the uint64 range");
    expect(() => parse({ ubig: -1 })).to.throw(JsonInputError, 'ubig: "-1" is not a valid uint64');
    expect(() => parse({ ubig: true })).to.throw(JsonInputError, "ubig: expected a uint64");
    expect(() => parse({ small: 1.5 })).to.throw(JsonInputError, 'small: "1.5" is not a valid int32');
  });

  it("accepts floats as numbers or decimal/exponent strings, and nothing else", () => {
    expect(parse({ ratio: "1.5e3" }).ratio).to.equal(1500);
    expect(parse({ ratio: 0.25 }).ratio).to.equal(0.25);
    expect(Number.isNaN(parse({ ratio: "NaN" }).ratio)).to.equal(true);
    for (const text of ["", " ", "0x10", "1,5", "Infinityx"]) expect(() => parse({ ratio: text }), text).to.throw(JsonInputError, "is not a number");
  });

  it("accepts enums by name or number and rejects others with the list of names", () => {
    expect(parse({ color: "COLOR_RED" }).color).to.equal(1);
    expect(parse({ color: 2 }).color).to.equal(2);
    expect(parse({ color: "2" }).color).to.equal(2);
    expect(() => parse({ color: "GREEN" })).to.throw(
      JsonInputError,
      'color: "GREEN" is not a Color (one of COLOR_UNSPECIFIED, COLOR_RED, COLOR_BLUE, or its number)',
    );
  });

  it("accepts bytes in standard and URL-safe base64", () => {
    expect(Array.from(parse({ data: "+//+AQ==" }).data as Uint8Array)).to.deep.equal([0xfb, 0xff, 0xfe, 0x01]);
    expect(Array.from(parse({ data: "-__-AQ" }).data as Uint8Array)).to.deep.equal([0xfb, 0xff, 0xfe, 0x01]);
    expect(Array.from(parse({ data: "+//+AQ" }).data as Uint8Array)).to.deep.equal([0xfb, 0xff, 0xfe, 0x01]);
    expect(Array.from(parse({ data: "" }).data as Uint8Array)).to.deep.equal([]);
    for (const text of ["not base64!", "A", "1e308", "__proto__", "+/_-", "QQ=", "QQ===", "Q===", " QQ==", "QQ==\n"]) {
      expect(() => parse({ data: text }), text).to.throw(JsonInputError, "is not base64");
    }
  });

  it("parses Any by @type, timestamps, durations and decimals back to what the renderer wrote", () => {
    const json = {
      any: { "@type": "/core.base.v1beta1.Coin", denom: "uhub", amount: "5" },
      time: "2021-03-01T12:00:00.123456789Z",
      period: "1.500s",
      rate: "0.1",
      amount: "1000",
    };
    const out = roundTrip(json);
    expect(out.any).to.deep.equal(json.any);
    expect(out.time).to.equal(json.time);
    expect(out.period).to.equal("1.500s");
    expect(out.rate).to.equal("0.100000000000000000");
    expect(out.amount).to.equal("1000");
  });

  it("rejects an Any whose @type is unknown, naming it", () => {
    expect(() => parse({ any: { "@type": "/x.Nope" } })).to.throw(JsonInputError, "any.@type: unable to resolve type URL /x.Nope");
  });

  it("names the nested path of a bad value", () => {
    expect(() => parse({ items: [{ count: 1 }, { count: "x" }] })).to.throw(JsonInputError, 'items[1].count: "x" is not a valid');
  });

  it("ignores unknown fields, as the real gateway does", () => {
    expect(parse({ nonsense: 1, text: "a" })).to.deep.equal({ text: "a" });
  });
});
