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

  it("refuses two values for a single field", () => {
    expect(() => bind(allBalances, { address: "a" }, "pagination.limit=1&pagination.limit=2")).to.throw(
      GatewayError,
      "pagination.limit: expected one value, got 2",
    );
  });

  it("binds repeated query parameters given as repeated keys, and repeated path variables as comma lists", () => {
    const Sample = codec.type("test.sample.Sample");
    const r = { ...allBalances, requestType: Sample, pathBindings: [{ variable: "numbers", fieldPath: [Sample.fields.numbers!] }] };
    const request = bind(r, { numbers: "1,2,3" }, "items=x");
    expect((request.numbers as Long[]).map(String)).to.deep.equal(["1", "2", "3"]);
    const fromQuery = bind({ ...r, pathBindings: [] }, {}, "numbers=4&numbers=5");
    expect((fromQuery.numbers as Long[]).map(String)).to.deep.equal(["4", "5"]);
  });

  it("takes the whole body as the request on body routes, and still binds path variables", () => {
    const post = route({ post: "/balance/{address}", method: "core.bank.v1beta1.Query/Balance", body: "*" });
    expect(bind(post, { address: "a" }, "denom=ignored", { denom: "uhub", address: "b" })).to.deep.equal({ address: "a", denom: "uhub" });
  });
});
