import { expect } from "chai";
import { NonCanonicalEncodingError, rejectNonCanonical } from "../../src/codec/canonicalEncoding.js";
import { rejectUnknownFields, UnknownFieldError } from "../../src/codec/unknownFields.js";
import { UnknownTypeUrlError } from "../../src/codec/typeRegistry.js";
import { concat, delimited, overlongVarint, tag, varint } from "../helpers/protoWire.js";
import { testCodec } from "../helpers/testCodec.js";

/** The deterministic encoding rules (ADR-027) and the unknown-field check, on a message with a field of every kind. */
describe("codec: deterministic encoding (ADR-027) and unknown fields", () => {
  const codec = testCodec();
  const Sample = codec.type("test.sample.Sample");
  const Inner = codec.type("test.sample.Inner");
  const check = (bytes: Uint8Array | number[]) => rejectNonCanonical(codec.root, Sample, Uint8Array.from(bytes));
  const refused = (bytes: Uint8Array | number[], why: RegExp) => expect(() => check(bytes)).to.throw(NonCanonicalEncodingError, why);
  const text = (value: string) => Buffer.from(value);
  const inner = Inner.encode({ name: "x", count: 3 }).finish();

  it("accepts what an encoder writes from set fields: scalars, a negative int32, packed numbers, nested messages, an Any, a oneof member holding zero", () => {
    const bytes = Sample.encode(
      Sample.fromObject({
        text: "a",
        big: "5",
        small: -1,
        flag: true,
        numbers: ["1", "300"],
        inner: { name: "x" },
        items: [{ count: 1 }, { count: 2 }],
        any: { type_url: "/test.sample.Inner", value: inner },
        number: "0",
      }),
    ).finish();
    expect(() => check(bytes)).to.not.throw();
    expect(() => check([])).to.not.throw();
  });

  it("refuses fields out of order, a singular field twice, and a repeated message field split into two runs", () => {
    refused(concat([...tag(2, 0), 5], delimited(1, text("a"))), /field 1 after field 2/);
    refused(concat(delimited(1, text("a")), delimited(1, text("b"))), /field 1 after field 1/);
    refused(concat(delimited(10, inner), [...tag(11, 2), 1, 1], delimited(10, inner)), /field 10 after field 11/);
    expect(() => check(concat(delimited(10, inner), delimited(10, inner)))).to.not.throw();
  });

  it("refuses default values written out, except oneof members", () => {
    refused(delimited(1, []), /field 1 holds its default value/);
    refused([...tag(2, 0), 0], /field 2 holds its default value/);
    refused([...tag(20, 1), 0, 0, 0, 0, 0, 0, 0, 0], /field 20 holds its default value/);
    refused([...tag(11, 2), 0], /field 11 is an empty packed list/);
    expect(() => check([...tag(19, 0), 0])).to.not.throw();
    expect(() => check(delimited(8, []))).to.not.throw(); // an empty message is a set message
  });

  it("refuses varints longer than needed (values and length prefixes), above 64 bits, and 32-bit values out of range", () => {
    refused([...tag(2, 0), ...overlongVarint(5)], /varint longer than needed/);
    refused([...tag(1, 2), ...overlongVarint(1), 0x61], /varint longer than needed/);
    refused([...tag(2, 0), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], /varint above 64 bits/);
    refused([...tag(4, 0), ...varint(2n ** 32n + 1n)], /field 4 \(int32\) is out of the 32-bit range/);
    refused([...tag(5, 0), 2], /field 5 \(bool\) must be 0 or 1/);
  });

  it("refuses repeated numbers that are not packed, invalid UTF-8, wrong wire types and groups", () => {
    refused([...tag(11, 0), 1, ...tag(11, 0), 2], /repeated field 11 must be packed/);
    refused(delimited(1, [0xff, 0xfe]), /field 1 is not valid UTF-8/);
    refused([...tag(1, 0), 1], /field 1 \(string\) is not a varint/);
    refused([...tag(1, 3)], /wire type 3/);
  });

  it("checks inside nested messages and Any values, and skips fields the type does not declare", () => {
    refused(delimited(8, concat([...tag(2, 0), 3], delimited(1, text("x")))), /non-deterministic encoding of test\.sample\.Inner: field 1 after field 2/);
    refused(
      delimited(12, concat(delimited(1, text("/test.sample.Inner")), delimited(2, [...tag(2, 0), ...overlongVarint(3)]))),
      /test\.sample\.Inner: varint longer than needed/,
    );
    expect(() => check(concat(delimited(1, text("a")), [...tag(99, 0), 1]))).to.not.throw();
  });

  it("rejectUnknownFields: tells whether it let non-critical fields through, and takes only the registered form of a type URL", () => {
    const body = codec.type("core.tx.v1beta1.TxBody");
    expect(rejectUnknownFields(codec.root, body, concat(delimited(2, text("memo"))), true)).to.equal(false);
    expect(rejectUnknownFields(codec.root, body, concat(delimited(2, text("memo")), [...tag(1025, 0), 1]), true)).to.equal(true);
    expect(() => rejectUnknownFields(codec.root, body, concat([...tag(1025, 0), 1]))).to.throw(UnknownFieldError, /TagNum: 1025/);
    const any = (typeUrl: string) =>
      concat(delimited(1, concat(delimited(1, text(typeUrl)), delimited(2, codec.type("core.bank.v1beta1.MsgSend").encode({ from_address: "a" }).finish()))));
    expect(rejectUnknownFields(codec.root, body, any("/core.bank.v1beta1.MsgSend"), true)).to.equal(false);
    expect(() => rejectUnknownFields(codec.root, body, any("type.googleapis.com/core.bank.v1beta1.MsgSend"), true)).to.throw(UnknownTypeUrlError);
  });
});
