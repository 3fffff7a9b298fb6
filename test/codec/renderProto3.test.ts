import { expect } from "chai";
import Long from "long";
import { UnknownTypeUrlError } from "../../src/codec/typeRegistry.js";
import { testCodec } from "../helpers/testCodec.js";

describe("proto3 JSON renderer (the real gateway's rules)", () => {
  const codec = testCodec();
  const Sample = codec.type("test.sample.Sample");
  const render = (value: Record<string, unknown>) => codec.renderer.render(Sample, Sample.decode(Sample.encode(value).finish()));

  it("emits every field under its proto name with its default when unset", () => {
    const json = render({});
    expect(Object.keys(json)).to.deep.equal([
      "text",
      "big",
      "ubig",
      "small",
      "flag",
      "data",
      "color",
      "inner",
      "required_inner",
      "items",
      "numbers",
      "any",
      "time",
      "period",
      "rate",
      "amount",
      "counts",
      "ratio",
    ]);
    expect(json).to.include({ text: "", big: "0", ubig: "0", small: 0, flag: false, color: "COLOR_UNSPECIFIED", ratio: 0 });
    expect(json.items).to.deep.equal([]);
    expect(json.numbers).to.deep.equal([]);
    expect(json.counts).to.deep.equal({});
  });

  it("renders an unset message as null, but a non-nullable one as its zero object", () => {
    const json = render({});
    expect(json.inner).to.equal(null);
    expect(json.any).to.equal(null);
    expect(json.time).to.equal(null);
    expect(json.required_inner).to.deep.equal({ name: "", count: "0" });
  });

  it("renders unset bytes as null and set bytes as standard base64 with padding", () => {
    expect(render({}).data).to.equal(null);
    expect(render({ data: Uint8Array.of(0xfb, 0xff, 0xfe, 0x01) }).data).to.equal("+//+AQ==");
  });

  it("renders 64-bit integers as strings, also inside repeated fields, and 32-bit ones as numbers", () => {
    const json = render({ big: Long.fromString("-9223372036854775808"), ubig: Long.fromString("18446744073709551615", true), small: -5, numbers: [1, 2] });
    expect(json.big).to.equal("-9223372036854775808");
    expect(json.ubig).to.equal("18446744073709551615");
    expect(json.small).to.equal(-5);
    expect(json.numbers).to.deep.equal(["1", "2"]);
  });

  it("renders enums by name, and unknown values as bare numbers", () => {
    expect(render({ color: 2 }).color).to.equal("COLOR_BLUE");
    expect(render({ color: 9 }).color).to.equal(9);
  });

  it("renders Any as @type first, then the packed message's fields inline", () => {
    const Coin = codec.type("core.base.v1beta1.Coin");
    const any = { type_url: "/core.base.v1beta1.Coin", value: Coin.encode({ denom: "uhub", amount: "5" }).finish() };
    const json = render({ any });
    expect(json.any).to.deep.equal({ "@type": "/core.base.v1beta1.Coin", denom: "uhub", amount: "5" });
    expect(Object.keys(json.any as object)[0]).to.equal("@type");
  });

  it('renders a well-known type inside an Any under "value"', () => {
    const Duration = codec.type("google.protobuf.Duration");
    const any = { type_url: "/google.protobuf.Duration", value: Duration.encode({ seconds: 3, nanos: 0 }).finish() };
    expect(render({ any }).any).to.deep.equal({ "@type": "/google.protobuf.Duration", value: "3s" });
  });

  it("fails with a clear error, not a crash, on an unknown type URL", () => {
    const any = { type_url: "/nowhere.Unknown", value: Uint8Array.of(1) };
    expect(() => render({ any })).to.throw(UnknownTypeUrlError, "unable to resolve type URL /nowhere.Unknown");
  });

  it("renders Timestamp as RFC 3339 UTC with 0, 3, 6 or 9 fraction digits", () => {
    const at = (nanos: number) => render({ time: { seconds: 1614600000, nanos } }).time;
    expect(at(0)).to.equal("2021-03-01T12:00:00Z");
    expect(at(123_000_000)).to.equal("2021-03-01T12:00:00.123Z");
    expect(at(580_000_000)).to.equal("2021-03-01T12:00:00.580Z"); // jsonpb keeps the zero; amino JSON would write .58
    expect(at(123_456_000)).to.equal("2021-03-01T12:00:00.123456Z");
    expect(at(123_456_789)).to.equal("2021-03-01T12:00:00.123456789Z");
  });

  it("renders Duration as seconds with an s suffix", () => {
    expect(render({ period: { seconds: 1814400, nanos: 0 } }).period).to.equal("1814400s");
    expect(render({ period: { seconds: 1, nanos: 500_000_000 } }).period).to.equal("1.500s");
  });

  it("renders Dec fields with 18 fraction digits and Int fields as integers", () => {
    const json = render({ rate: "100000000000000000", amount: "1000" });
    expect(json.rate).to.equal("0.100000000000000000");
    expect(json.amount).to.equal("1000");
    expect(render({}).rate).to.equal("0.000000000000000000");
    expect(render({}).amount).to.equal("0");
    expect(render({ rate: "-1500000000000000000" }).rate).to.equal("-1.500000000000000000");
  });

  it("renders only the member of a oneof that is set, under its own name", () => {
    const json = render({ number: 7 });
    expect(json.number).to.equal("7");
    expect(json).not.to.have.property("word");
    expect(render({})).not.to.have.any.keys("word", "number");
  });

  it("renders maps as objects", () => {
    expect(render({ counts: { a: 1, b: 2 } }).counts).to.deep.equal({ a: "1", b: "2" });
  });

  it("renders a ModuleAccount with its embedded base_account nested, as jsonpb does", () => {
    const ModuleAccount = codec.type("core.auth.v1beta1.ModuleAccount");
    const msg = ModuleAccount.decode(ModuleAccount.encode({ base_account: { address: "hub1x", account_number: 3 }, name: "fee_collector" }).finish());
    expect(codec.renderer.render(ModuleAccount, msg)).to.deep.equal({
      base_account: { address: "hub1x", pub_key: null, account_number: "3", sequence: "0" },
      name: "fee_collector",
      permissions: [],
    });
  });
});
