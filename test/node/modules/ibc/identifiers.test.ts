import { expect } from "chai";
import { parseHexHash } from "../../../../src/node/modules/ibc/transfer/denomTrace.js";
import { revisionOfChainId } from "../../../../src/node/modules/ibc/host/heights.js";

describe("IBC helpers", () => {
  it("reads the revision of a chain id as the real ParseChainID", () => {
    expect(revisionOfChainId("devnet-1")).to.equal(1n);
    expect(revisionOfChainId("peer-12")).to.equal(12n);
    expect(revisionOfChainId("devnet")).to.equal(0n);
    expect(revisionOfChainId("devnet-0")).to.equal(0n);
    expect(revisionOfChainId("a--1")).to.equal(0n);
  });

  it("parses denom trace hashes with Go's hex errors", () => {
    expect(parseHexHash("ab".repeat(32))).to.have.length(32);
    expect(() => parseHexHash("0g")).to.throw("encoding/hex: invalid byte: U+0067 'g'");
    expect(() => parseHexHash("abc")).to.throw("encoding/hex: odd length hex string");
    expect(() => parseHexHash("abcd")).to.throw("expected size to be 32 bytes, got 2 bytes");
  });
});
