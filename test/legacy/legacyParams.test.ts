import { expect } from "chai";
import { checkedParam, pageAndLimit, pageOffset, queryHeight } from "../../src/legacy/legacyParams.js";
import { LegacyError } from "../../src/legacy/legacyErrors.js";
import type { ParamSpec } from "../../src/tables/legacyRouteSpec.js";

/** The legacy family's integer parameters go through the same parser as the gateway's (codec/scalarText.ts), with the real handlers' texts. */
describe("legacy parameters: integers as the proto type allows, with the real texts", () => {
  const refused = (fn: () => unknown, message: string) => {
    expect(fn).to.throw(LegacyError, message);
    try {
      fn();
    } catch (err) {
      expect((err as LegacyError).status).to.equal(400);
    }
  };

  it("?height= is a decimal int64, 0 or absent for the latest", () => {
    expect(queryHeight(null)).to.equal(0);
    expect(queryHeight("12")).to.equal(12);
    refused(() => queryHeight("0x10"), 'strconv.ParseInt: parsing "0x10": invalid syntax');
    refused(() => queryHeight(" 1"), 'strconv.ParseInt: parsing " 1": invalid syntax');
    refused(() => queryHeight("9223372036854775808"), 'strconv.ParseInt: parsing "9223372036854775808": value out of range');
    refused(() => queryHeight("-1"), "height must be equal or greater than zero");
  });

  it("?page=&limit= are positive decimals; a page past any result is a 400, never a wrapped offset", () => {
    const paging = { defaultLimit: 100, of: "request" as const };
    expect(pageAndLimit(new URLSearchParams(""), paging)).to.deep.equal({ page: 1, limit: 100 });
    expect(pageAndLimit(new URLSearchParams("page=4294967296&limit=5"), paging)).to.deep.equal({ page: 4294967296, limit: 5 });
    refused(() => pageAndLimit(new URLSearchParams("page=1e3"), paging), 'strconv.Atoi: parsing "1e3": invalid syntax');
    refused(() => pageAndLimit(new URLSearchParams("limit=-0"), paging), "limit must greater than 0");
    refused(() => pageAndLimit(new URLSearchParams("page=99999999999999999999"), paging), 'strconv.Atoi: parsing "99999999999999999999": value out of range');
    refused(() => pageAndLimit(new URLSearchParams("page=9007199254740993"), paging), "page 9007199254740993 is beyond any result");
    expect(pageOffset({ page: 4294967296, limit: 100 }).toString()).to.equal("429496729500");
    refused(() => pageOffset({ page: 2 ** 53, limit: 2 ** 20 }), "is beyond any result");
  });

  it("path ids declared uint64 or int64 take exactly that type", () => {
    const spec: ParamSpec = { name: "proposal-id", in: "path", required: true, upper: false, format: "uint64" };
    expect(checkedParam(spec, "18446744073709551615")).to.equal("18446744073709551615");
    for (const raw of ["-1", "0x10", "01", "1e3", "18446744073709551616", "\uFEFF1"]) refused(() => checkedParam(spec, raw), `'${raw}' is not a valid uint64`);
    refused(() => checkedParam({ ...spec, format: "int64" }, "9223372036854775808"), "'9223372036854775808' is not a valid int64");
    expect(checkedParam({ ...spec, format: "int64" }, "-5")).to.equal("-5");
  });
});
