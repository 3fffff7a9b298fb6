import { expect } from "chai";
import http from "node:http";
import zlib from "node:zlib";
import { startRestServer } from "../../src/commands/restServer.js";
import { COMPRESS_FROM_BYTES } from "../../src/http/compression.js";
import { PINNED_MAX_AGE } from "../../src/http/httpCaching.js";
import type { EmbeddedNode } from "../../src/node/embeddedNode.js";
import { InProcessClient } from "../../src/node/inProcessClient.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { openDevNode } from "../helpers/devNode.js";
import { testApiConfig } from "../helpers/testApiConfig.js";

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent (still compressed when they were). */
  bytes: Buffer;
}

/** A GET over node:http, which neither asks for nor undoes compression by itself. */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

const decoded = (r: Raw) =>
  r.headers["content-encoding"] === "br" ? zlib.brotliDecompressSync(r.bytes) : r.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(r.bytes) : r.bytes;

describe("HTTP caching and compression of answers", function () {
  this.timeout(120_000);
  let node: EmbeddedNode;
  let address: string;
  let rest: RunningServer;
  let maxAgeRest: RunningServer;

  before(async () => {
    let addresses: string[];
    ({ node, addresses } = await openDevNode({ accounts: 12 }));
    address = addresses[0]!;
    await node.produceBlock(); // height 2: height 1 is an earlier kept height
    const client = new InProcessClient(node);
    rest = await startRestServer(testApiConfig({ swagger: false }), "hub", client, node.codec);
    maxAgeRest = await startRestServer(testApiConfig({ swagger: false, "cache-max-age": 30 }), "hub", client, node.codec);
  });
  after(async () => {
    await rest.close();
    await maxAgeRest.close();
    await node.close();
  });

  const balance = () => `/core/bank/v1beta1/balances/${address}`;
  describe("cache headers", () => {
    const rows: Array<{ name: string; path: () => string; headers?: Record<string, string>; maxAge?: boolean; status: number; cacheControl?: string }> = [
      { name: "an answer at the latest height", path: balance, status: 200, cacheControl: "no-cache" },
      {
        name: "an answer at a height the request names",
        path: balance,
        headers: { "x-cosmos-block-height": "1" },
        status: 200,
        cacheControl: `public, max-age=${PINNED_MAX_AGE}, immutable`,
      },
      {
        name: "the same by the Grpc-Metadata- form of the header",
        path: balance,
        headers: { "grpc-metadata-x-cosmos-block-height": "1" },
        status: 200,
        cacheControl: `public, max-age=${PINNED_MAX_AGE}, immutable`,
      },
      { name: "an answer at the latest height with api.cache-max-age = 30", path: balance, maxAge: true, status: 200, cacheControl: "public, max-age=30" },
      { name: "a legacy answer", path: () => `/bank/balances/${address}`, status: 200, cacheControl: "no-cache" },
      {
        name: "a legacy answer with a header it does not read",
        path: () => `/bank/balances/${address}`,
        headers: { "x-cosmos-block-height": "x" },
        status: 200,
        cacheControl: "no-cache",
      },
      { name: "a refusal (400)", path: () => "/core/bank/v1beta1/balances/not-an-address", status: 400 },
      { name: "a height not kept (400)", path: balance, headers: { "x-cosmos-block-height": "99" }, status: 400 },
      { name: "an unknown path (501)", path: () => "/core/nothing/here", status: 501 },
    ];
    for (const row of rows) {
      it(row.name, async () => {
        const r = await get((row.maxAge ? maxAgeRest : rest).url + row.path(), row.headers);
        expect(r.status).to.equal(row.status);
        expect(r.headers["cache-control"]).to.equal(row.cacheControl);
        if (row.status === 200) {
          expect(r.headers.etag).to.match(/^W\/"(\d+-)?[A-Za-z0-9_-]{16}"$/); // legacy answers carry their height in the body
          expect(r.headers.vary).to.include("x-cosmos-block-height");
        } else expect(r.headers.etag).to.equal(undefined);
      });
    }
  });

  describe("conditional requests", () => {
    it("If-None-Match with the ETag is answered 304 with no body until the height moves, then 200 with a new ETag", async () => {
      const first = await get(rest.url + balance());
      const etag = first.headers.etag!;
      expect(etag).to.include(`"${node.height}-`);
      for (const form of [etag, etag.slice(2), `"other", ${etag}`, "*"]) {
        const again = await get(rest.url + balance(), { "if-none-match": form });
        expect(again.status, form).to.equal(304);
        expect(again.bytes.length).to.equal(0);
        expect(again.headers.etag).to.equal(etag);
        expect(again.headers["cache-control"]).to.equal("no-cache");
      }
      expect((await get(rest.url + balance(), { "if-none-match": 'W/"1-AAAAAAAAAAAAAAAA"' })).status).to.equal(200);
      await node.produceBlock(); // the same balance, at a new height
      const moved = await get(rest.url + balance(), { "if-none-match": etag });
      expect(moved.status).to.equal(200);
      expect(moved.bytes.toString()).to.equal(first.bytes.toString());
      expect(moved.headers.etag).to.not.equal(etag);
    });

    it("a pinned answer's ETag is answered 304 too", async () => {
      const pinned = { "x-cosmos-block-height": "1" };
      const first = await get(rest.url + balance(), pinned);
      const again = await get(rest.url + balance(), { ...pinned, "if-none-match": first.headers.etag! });
      expect(again.status).to.equal(304);
      expect(again.headers["cache-control"]).to.equal(`public, max-age=${PINNED_MAX_AGE}, immutable`);
    });
  });

  describe("compression", () => {
    const accounts = "/core/auth/v1beta1/accounts";
    const rows: Array<{ name: string; path: string; acceptEncoding?: string; encoding?: string }> = [
      { name: "brotli when asked", path: accounts, acceptEncoding: "br", encoding: "br" },
      { name: "gzip when asked", path: accounts, acceptEncoding: "gzip", encoding: "gzip" },
      { name: "brotli when both are as welcome", path: accounts, acceptEncoding: "gzip, deflate, br", encoding: "br" },
      { name: "gzip when brotli is refused", path: accounts, acceptEncoding: "br;q=0, gzip", encoding: "gzip" },
      { name: "the preferred one by q", path: accounts, acceptEncoding: "br;q=0.5, gzip;q=0.9", encoding: "gzip" },
      { name: "none for identity", path: accounts, acceptEncoding: "identity" },
      { name: "none with no Accept-Encoding", path: accounts },
      { name: "any for *", path: accounts, acceptEncoding: "*", encoding: "br" },
      { name: "none when every coding is refused", path: accounts, acceptEncoding: "br;q=0, gzip;q=0, *;q=0" },
      { name: "a malformed q counts as refused", path: accounts, acceptEncoding: "br;q=x, gzip", encoding: "gzip" },
      { name: "none for an answer under the threshold", path: "/core/bank/v1beta1/params", acceptEncoding: "gzip, br" },
    ];
    let identity: Buffer;
    before(async () => {
      identity = (await get(rest.url + accounts)).bytes;
      expect(identity.length, "the accounts answer is over the threshold").to.be.at.least(COMPRESS_FROM_BYTES);
    });
    for (const row of rows) {
      it(row.name, async () => {
        // twice: the second is the answer cache's, compressed from what was kept
        for (let ask = 0; ask < 2; ask++) {
          const r = await get(rest.url + row.path, row.acceptEncoding ? { "accept-encoding": row.acceptEncoding } : {});
          expect(r.status).to.equal(200);
          expect(r.headers["content-encoding"]).to.equal(row.encoding);
          expect(r.headers["content-type"]).to.match(/^application\/json/);
          expect(Number(r.headers["content-length"])).to.equal(r.bytes.length);
          if (row.path === accounts) {
            expect(decoded(r).equals(identity)).to.equal(true);
            expect(r.headers.vary).to.include("Accept-Encoding");
            if (row.encoding) expect(r.bytes.length).to.be.lessThan(identity.length);
          }
        }
      });
    }

    it("a 304 to a compressed answer's ETag carries no body", async () => {
      const first = await get(rest.url + accounts, { "accept-encoding": "br" });
      const again = await get(rest.url + accounts, { "accept-encoding": "br", "if-none-match": first.headers.etag! });
      expect(again.status).to.equal(304);
      expect(again.bytes.length).to.equal(0);
      expect(again.headers["content-encoding"]).to.equal(undefined);
    });
  });
});
