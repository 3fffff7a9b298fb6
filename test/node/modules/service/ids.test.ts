import { expect } from "chai";
import { contextIdParam, makeRequestId, requestIdParam, splitRequestId } from "../../../../src/node/modules/service/ids.js";

describe("service request ids", () => {
  it("splits a request id into its context, batch, height and index, and checks id parameters like the real handlers", () => {
    const context = Uint8Array.from({ length: 40 }, (_, i) => i);
    const id = makeRequestId(context, 7n, 123n, 2);
    expect(id).to.have.length(58);
    const parts = splitRequestId(id);
    expect([Buffer.from(parts.contextId).equals(Buffer.from(context)), parts.batchCounter, parts.requestHeight, parts.index]).to.deep.equal([
      true,
      7n,
      123n,
      2,
    ]);
    expect(Buffer.from(requestIdParam(Buffer.from(id).toString("hex").toUpperCase())).equals(Buffer.from(id))).to.equal(true);
    expect(() => contextIdParam("ab")).to.throw("length of the request context ID must be 80 in bytes: invalid request context ID");
    expect(() => requestIdParam("g".repeat(116))).to.throw("request ID must be a hex encoded string: invalid request context ID");
  });
});
