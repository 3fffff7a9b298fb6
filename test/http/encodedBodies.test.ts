import { expect } from "chai";
import zlib from "node:zlib";
import { EncodedBodies, ENCODINGS } from "../../src/http/encodedBodies.js";

describe("encoded bodies: an answer asked again is hashed and compressed once", () => {
  const large = JSON.stringify({ accounts: [...Array(200).keys()].map((i) => ({ address: `hub1account${i}`, sequence: String(i) })) });

  for (const encoding of ENCODINGS) {
    it(`${encoding}: the same string body gives the same compressed bytes, not a new compression`, async () => {
      const bodies = new EncodedBodies();
      const first = await bodies.encode(large, encoding);
      expect(await bodies.encode(large, encoding)).to.equal(first); // the very same Buffer: kept
      const back = encoding === "br" ? zlib.brotliDecompressSync(first) : zlib.gunzipSync(first);
      expect(back.toString()).to.equal(large);
    });
  }

  it("a Buffer body is found by identity; a small body is not kept", async () => {
    const bodies = new EncodedBodies();
    const buffer = Buffer.from(large);
    expect(await bodies.encode(buffer, "gzip")).to.equal(await bodies.encode(buffer, "gzip"));
    expect(await bodies.encode("{}", "gzip")).to.not.equal(await bodies.encode("{}", "gzip"));
  });

  it("the digest depends on the bytes only", () => {
    const bodies = new EncodedBodies();
    expect(bodies.digest(large)).to.equal(bodies.digest(Buffer.from(large)));
    expect(bodies.digest(large)).to.not.equal(bodies.digest(`${large} `));
    expect(bodies.digest(large)).to.match(/^[A-Za-z0-9_-]{16}$/);
  });
});
