import { expect } from "chai";
import zlib from "node:zlib";
import { EncodedBodies, ENCODINGS, type Encoding } from "../../src/http/encodedBodies.js";

/** What a GET answer costs the cache: its ETag's digest, then (a client asking for it) its compressed form. */
async function served(bodies: EncodedBodies, body: string | Buffer, encoding: Encoding): Promise<Buffer> {
  bodies.digest(body);
  return bodies.encode(body, encoding);
}

describe("encoded bodies: an answer asked again is hashed and compressed once", () => {
  const large = JSON.stringify({ accounts: [...Array(200).keys()].map((i) => ({ address: `hub1account${i}`, sequence: String(i) })) });

  for (const encoding of ENCODINGS) {
    it(`${encoding}: the same string body asked again gives the same compressed bytes, not a new compression`, async () => {
      const bodies = new EncodedBodies();
      await served(bodies, large, encoding); // asked once: not kept
      expect(bodies.held.bodies).to.equal(0);
      const first = await served(bodies, large, encoding);
      expect(await served(bodies, large, encoding)).to.equal(first); // the very same Buffer: kept
      expect(bodies.compressions[encoding]).to.equal(2);
      const back = encoding === "br" ? zlib.brotliDecompressSync(first) : zlib.gunzipSync(first);
      expect(back.toString()).to.equal(large);
    });
  }

  it("a Buffer body is found by identity; a small body is not kept", async () => {
    const bodies = new EncodedBodies();
    const buffer = Buffer.from(large);
    await served(bodies, buffer, "gzip");
    expect(await served(bodies, buffer, "gzip")).to.equal(await served(bodies, buffer, "gzip"));
    await served(bodies, "{}", "gzip");
    expect(await served(bodies, "{}", "gzip")).to.not.equal(await served(bodies, "{}", "gzip"));
  });

  // counted, not timed: most answers are asked once (a balance at the latest height); before, each of them
  // was kept until the 32 MiB bound filled (the soak's slow heap growth)
  it("bodies asked once are not kept; of 2,000 bodies, the 100 asked twice are", async () => {
    const bodies = new EncodedBodies();
    const body = (i: number) => `${large}${i}`;
    for (let i = 0; i < 2_000; i++) await served(bodies, body(i), "gzip");
    expect(bodies.held).to.deep.equal({ bodies: 0, bytes: 0 });
    for (let i = 0; i < 100; i++) await served(bodies, body(i * 20), "gzip");
    expect(bodies.held.bodies).to.equal(100);
  });

  it("the digest depends on the bytes only", () => {
    const bodies = new EncodedBodies();
    expect(bodies.digest(large)).to.equal(bodies.digest(Buffer.from(large)));
    expect(bodies.digest(large)).to.not.equal(bodies.digest(`${large} `));
    expect(bodies.digest(large)).to.match(/^[A-Za-z0-9_-]{16}$/);
  });
});
