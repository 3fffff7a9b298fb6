import { expect } from "chai";
import Long from "long";
import { bindRequest } from "../../src/gateway/binder.js";
import { GatewayError } from "../../src/http/grpcStatus.js";
import { compileRoute } from "../../src/tables/compileRoutes.js";
import { testCodec } from "../helpers/testCodec.js";

describe("request binder", () => {
  const codec = testCodec();
  const source = { file: "test.yaml", index: 0, label: "test" };
  const route = (entry: Record<string, unknown>) => compileRoute(entry as never, source, codec.root);
  const allBalances = route({ get: "/balances/{address}", method: "core.bank.v1beta1.Query/AllBalances" });
  const bind = (r: ReturnType<typeof route>, pathParams: Record<string, string>, query = "", body?: unknown) =>
    bindRequest(r, { pathParams, query: new URLSearchParams(query), body }, codec.parser);

  it("fills request fields from path variables", () => {
    expect(bind(allBalances, { address: "hub1abc" })).to.deep.equal({ address: "hub1abc" });
  });

  it("fills nested fields from dotted query parameters, in proto or camelCase form", () => {
    const request = bind(allBalances, { address: "a" }, "pagination.limit=5&pagination.countTotal=true&pagination.offset=16");
    const pagination = request.pagination as Record<string, unknown>;
    expect((pagination.limit as Long).toString()).to.equal("5");
    expect(pagination.count_total).to.equal(true);
    expect((pagination.offset as Long).toString()).to.equal("16");
  });

  it("reads pagination.key as standard or URL-safe base64", () => {
    const std = bind(allBalances, { address: "a" }, "pagination.key=%2B%2F8%3D").pagination as Record<string, unknown>;
    const url = bind(allBalances, { address: "a" }, "pagination.key=-_8").pagination as Record<string, unknown>;
    expect(Array.from(std.key as Uint8Array)).to.deep.equal([0xfb, 0xff]);
    expect(Array.from(url.key as Uint8Array)).to.deep.equal([0xfb, 0xff]);
  });

  it("ignores unknown query parameters and does not let the query override a path variable", () => {
    expect(bind(allBalances, { address: "a" }, "height=5&nonsense=1&address=b")).to.deep.equal({ address: "a" });
  });

  it("answers a value that does not fit its field with InvalidArgument naming the parameter", () => {
    const bad = () => bind(allBalances, { address: "a" }, "pagination.limit=abc");
    expect(bad).to.throw(GatewayError, 'invalid request: pagination.limit: "abc" is not a valid uint64');
    try {
      bad();
    } catch (err) {
      expect((err as GatewayError).code).to.equal(3);
      expect((err as GatewayError).httpStatus).to.equal(400);
    }
  });

  describe("a parameter given twice takes its first value, as grpc-gateway 1.16 (a repeated field takes every value)", () => {
    const Sample = codec.type("test.sample.Sample");
    const sample = { ...allBalances, requestType: Sample, pathBindings: [] };
    const text = (value: unknown) => (Long.isLong(value) || typeof value === "number" || typeof value === "string" ? String(value) : value);
    const cases: Array<[string, string, string, unknown]> = [
      ["string", "text", "a", "a"],
      ["int64", "big", "-5", "-5"],
      ["uint64", "ubig", "7", "7"],
      ["int32", "small", "3", 3],
      ["bool", "flag", "true", true],
      ["enum", "color", "COLOR_BLUE", 2],
      ["double", "ratio", "0.5", 0.5],
      ["Dec", "rate", "0.25", "250000000000000000"], // the 18-decimal integer the SDK encodes
      ["Int", "amount", "12", "12"],
      ["nested uint64", "inner.count", "9", "9"],
    ];
    for (const [kind, name, first, expected] of cases) {
      it(`${kind} (${name})`, () => {
        const request = bind(sample, {}, `${name}=${first}&${name}=${first === "a" ? "b" : "2"}`);
        const value = name.split(".").reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], request);
        expect(text(value)).to.deep.equal(text(expected));
      });
    }
    it("bytes (data)", () => {
      const request = bind(sample, {}, "data=AQI%3D&data=AwQ%3D");
      expect(Array.from(request.data as Uint8Array)).to.deep.equal([1, 2]);
    });
    it("pagination.limit on a real route", () => {
      const request = bind(allBalances, { address: "a" }, "pagination.limit=5&pagination.limit=20");
      expect(String((request.pagination as Record<string, unknown>).limit)).to.equal("5");
    });
    it("the second value is not even parsed (a bad second value is ignored, as the real gateway never reads it)", () => {
      expect(String(bind(sample, {}, "ubig=7&ubig=abc").ubig)).to.equal("7");
    });
    it("a repeated field still takes every value", () => {
      expect((bind(sample, {}, "numbers=4&numbers=5").numbers as Long[]).map(String)).to.deep.equal(["4", "5"]);
    });
  });

  it("binds repeated query parameters given as repeated keys, and repeated path variables as comma lists", () => {
    const Sample = codec.type("test.sample.Sample");
    const r = { ...allBalances, requestType: Sample, pathBindings: [{ variable: "numbers", fieldPath: [Sample.fields.numbers!] }] };
    const request = bind(r, { numbers: "1,2,3" }, "items=x");
    expect((request.numbers as Long[]).map(String)).to.deep.equal(["1", "2", "3"]);
    const fromQuery = bind({ ...r, pathBindings: [] }, {}, "numbers=4&numbers=5");
    expect((fromQuery.numbers as Long[]).map(String)).to.deep.equal(["4", "5"]);
  });

  it('reads "name[]" (as axios writes lists) as a repeated field\'s values, and ignores it on a single field', () => {
    const search = route({ get: "/txs", method: "core.tx.v1beta1.Service/GetTxsEvent" });
    const request = bind(search, {}, "events[]=a.b=1&events=c.d=2&events[]=e.f=3&pagination.limit[]=9");
    expect(request.events).to.deep.equal(["a.b=1", "e.f=3", "c.d=2"]);
    expect((request.pagination as { limit?: unknown } | undefined)?.limit).to.equal(undefined);
  });

  it("takes the whole body as the request on body routes, and still binds path variables", () => {
    const post = route({ post: "/balance/{address}", method: "core.bank.v1beta1.Query/Balance", body: "*" });
    expect(bind(post, { address: "a" }, "denom=ignored", { denom: "uhub", address: "b" })).to.deep.equal({ address: "a", denom: "uhub" });
  });
});
