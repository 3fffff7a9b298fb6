import crypto from "node:crypto";
import zlib from "node:zlib";
import { promisify } from "node:util";
import { LRUCache } from "lru-cache";

/** The content codings served, the server's preference first. */
export const ENCODINGS = ["br", "gzip"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Bytes kept of bodies with their digests and compressed forms (the body itself counted too). */
const ENCODED_BODIES_BYTES = 32 * 2 ** 20;
/** Digests of bodies asked once, remembered to know a body asked again (16 characters each, about 1 MiB at most). */
const ASKED_ONCE_DIGESTS = 16_384;
/** Bodies at least this large are kept here (smaller ones are hashed again: cheaper than a lookup that keeps them). */
const KEPT_FROM_BYTES = 1024;
/** Larger bodies are compressed on the thread pool, smaller ones at once (well under a millisecond). */
const SYNC_BELOW_BYTES = 256 * 1024;

/** Settings for answers written while a client waits: brotli's top qualities cost far more CPU for little fewer bytes. */
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };
const GZIP_OPTIONS = { level: 6 };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Body = string | Buffer;

interface Entry {
  digest: string;
  encoded: Partial<Record<Encoding, Buffer>>;
  bytes: number;
}

/**
 * The digest of an answer's body (for its ETag) and its compressed forms,
 * kept for the bodies asked again: an answer served from the answer cache
 * (the same string or Buffer every time) or the OpenAPI document is hashed
 * and compressed once or twice, not at every request. A body is kept from
 * the second request that asks for its digest (the ETag, once per GET) on:
 * most answers are asked once (a balance at the latest height), and keeping
 * each of those would fill the bound with bodies never asked again. Bounded
 * by ENCODED_BODIES_BYTES, the least recently used leaving first, and the
 * digests of bodies asked once by ASKED_ONCE_DIGESTS. A string body is found
 * by its text (V8 keeps a string's hash in the string, so the same string is
 * found at once), a Buffer by identity.
 */
export class EncodedBodies {
  private readonly kept = new LRUCache<Body, Entry>({ maxSize: ENCODED_BODIES_BYTES, sizeCalculation: (entry) => entry.bytes });
  private readonly askedOnce = new LRUCache<string, true>({ max: ASKED_ONCE_DIGESTS });

  /** Bodies compressed, by coding: a kept body counts once per coding however often it is served (metrics, tests). */
  readonly compressions: Record<Encoding, number> = { br: 0, gzip: 0 };

  /** Bodies kept and the bytes counted for them (metrics, tests). */
  get held(): { bodies: number; bytes: number } {
    return { bodies: this.kept.size, bytes: this.kept.calculatedSize };
  }

  /** A short digest of the body (base64url of SHA-1, 16 characters); a body asked for it again is kept from then on. */
  digest(body: Body): string {
    const length = typeof body === "string" ? body.length : body.length;
    if (length < KEPT_FROM_BYTES) return digestOf(body);
    const entry = this.kept.get(body);
    if (entry) return entry.digest;
    const digest = digestOf(body);
    if (this.askedOnce.has(digest)) {
      this.askedOnce.delete(digest);
      this.kept.set(body, { digest, encoded: {}, bytes: typeof body === "string" ? Buffer.byteLength(body) : body.length });
    } else this.askedOnce.set(digest, true);
    return digest;
  }

  /** The body compressed with `encoding`: once for a kept body. */
  async encode(body: Body, encoding: Encoding): Promise<Buffer> {
    const entry = this.kept.get(body);
    const done = entry?.encoded[encoding];
    if (done) return done;
    const encoded = await compress(body, encoding);
    this.compressions[encoding]++;
    if (entry && this.kept.has(body)) {
      entry.encoded[encoding] = encoded;
      entry.bytes += encoded.length;
      this.kept.set(body, entry); // counted again with its new size
    }
    return encoded;
  }
}

function digestOf(body: Body): string {
  // the one-shot form: no Hash object per answer (answers under KEPT_FROM_BYTES are hashed at every request)
  return crypto.hash("sha1", body, "base64url").slice(0, 16);
}

function compress(body: Body, encoding: Encoding): Promise<Buffer> {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  if (bytes.length < SYNC_BELOW_BYTES) {
    return Promise.resolve(encoding === "br" ? zlib.brotliCompressSync(bytes, BROTLI_OPTIONS) : zlib.gzipSync(bytes, GZIP_OPTIONS));
  }
  return encoding === "br" ? brotli(bytes, BROTLI_OPTIONS) : gzip(bytes, GZIP_OPTIONS);
}
