import { LRUCache } from "lru-cache";
import type { AbciQueryResponse } from "../../client/chainClient.js";
import { NodeUnavailableError } from "../../client/chainClient.js";
import { decodeKvPairs } from "../abci/kvPairs.js";
import { realStoreName } from "../abci/storeQuery.js";
import { compareBytes, concatBytes } from "../store/keyEncoding.js";

/** The most bytes of remote keys and values a fork keeps in memory (docs/guide/fork.md). */
const FORK_CACHE_MAX_BYTES = 256 * 1024 * 1024;
/** Tries of one remote read before the read fails (only when the remote cannot be reached; an answer is final). */
export const FORK_REMOTE_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 250;
/** Bytes counted for a cached entry besides its keys and values. */
const ENTRY_OVERHEAD = 64;
const SLASH = 0x2f;

/** What a fork asks its remote node: abci_query (the RPC client of src/client/ does it over HTTP, bounded by its timeout). */
export interface RemoteQuerier {
  abciQuery(path: string, data: Uint8Array, height: number): Promise<AbciQueryResponse>;
}

/** The remote node could not answer a read of the forked state: named with the remote, the path and the height. */
export class ForkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForkError";
  }
}

type Cached = { value: Uint8Array | null } | { pairs: Array<[Uint8Array, Uint8Array]> };

/**
 * The state of a remote node at one height, read lazily through its raw store queries
 * (`/store/<store>/key` and `/store/<store>/subspace`), keyed as this node's state is:
 * `<module>/<key in the module's store>`. Every answer is kept (absent keys too) in one
 * LRU bounded by FORK_CACHE_MAX_BYTES; a scan reads a prefix's range once, and later
 * reads of keys and longer prefixes under it are answered from that range.
 */
export class RemoteState {
  private readonly cache: LRUCache<string, Cached>;
  /** Reads under way, so that two readers of one key ask the remote once. */
  private readonly inFlight = new Map<string, Promise<Cached>>();
  /** Remote reads made (for the tests and the bench: how many went over the network). */
  remoteReads = 0;

  constructor(
    private readonly remote: RemoteQuerier,
    readonly url: string,
    readonly height: number,
    maxBytes = FORK_CACHE_MAX_BYTES,
  ) {
    this.cache = new LRUCache<string, Cached>({ maxSize: maxBytes, sizeCalculation: (entry, key) => cachedBytes(entry) + key.length + ENTRY_OVERHEAD });
  }

  /** The remote's value of a full key (`<module>/<key>`), undefined when absent. */
  async get(fullKey: Uint8Array): Promise<Uint8Array | undefined> {
    const scanned = this.coveringScan(fullKey, fullKey.length);
    if (scanned) return scanned.find(([key]) => compareBytes(key, fullKey) === 0)?.[1];
    const entry = await this.read(`k${hex(fullKey)}`, async () => {
      const { store, key } = splitFullKey(fullKey);
      const answer = await this.query(store, "key", key);
      return { value: answer.value.length > 0 ? asBuffer(answer.value) : null };
    });
    return "value" in entry ? (entry.value ?? undefined) : undefined;
  }

  /** Every remote entry under a full-key prefix (`<module>/<prefix>`, the prefix not empty), in key order, full keys. */
  async scan(fullPrefix: Uint8Array): Promise<Array<[Uint8Array, Uint8Array]>> {
    const covering = this.coveringScan(fullPrefix, fullPrefix.length);
    if (covering) return covering.filter(([key]) => startsWith(key, fullPrefix));
    const entry = await this.read(`s${hex(fullPrefix)}`, async () => {
      const { store, key, module } = splitFullKey(fullPrefix);
      if (key.length === 0) throw new ForkError(`a scan of the whole ${module} store is not read from the remote (the store query needs a prefix)`);
      const answer = await this.query(store, "subspace", key);
      const head = new TextEncoder().encode(`${module}/`);
      const pairs = decodeKvPairs(answer.value).map(([k, v]): [Uint8Array, Uint8Array] => [concatBytes(head, k), asBuffer(v)]);
      return { pairs: pairs.filter(([k]) => startsWith(k, fullPrefix)).sort(([a], [b]) => compareBytes(a, b)) };
    });
    return "pairs" in entry ? entry.pairs : [];
  }

  /** The kept scan of `bytes`' longest prefix (up to `length` bytes) that was scanned, if any. */
  private coveringScan(bytes: Uint8Array, length: number): Array<[Uint8Array, Uint8Array]> | undefined {
    const slash = bytes.indexOf(SLASH);
    for (let end = length; end > slash + 1; end--) {
      const entry = this.cache.get(`s${hex(bytes.subarray(0, end))}`);
      if (entry && "pairs" in entry) return entry.pairs;
    }
    return undefined;
  }

  private async read(cacheKey: string, load: () => Promise<Cached>): Promise<Cached> {
    const kept = this.cache.get(cacheKey);
    if (kept) return kept;
    let pending = this.inFlight.get(cacheKey);
    if (!pending) {
      pending = load().finally(() => this.inFlight.delete(cacheKey));
      this.inFlight.set(cacheKey, pending);
    }
    const entry = await pending;
    this.cache.set(cacheKey, entry);
    return entry;
  }

  /** One store query at the forked height, tried FORK_REMOTE_ATTEMPTS times while the remote cannot be reached. */
  private async query(store: string, kind: "key" | "subspace", data: Uint8Array): Promise<AbciQueryResponse> {
    const path = `/store/${store}/${kind}`;
    let lastFailure = "";
    for (let attempt = 1; attempt <= FORK_REMOTE_ATTEMPTS; attempt++) {
      this.remoteReads++;
      try {
        const answer = await this.remote.abciQuery(path, data, this.height);
        if (answer.code !== 0)
          throw new ForkError(`fork: the remote ${this.url} answered ${path} at height ${this.height} with code ${answer.code}: ${answer.log}`);
        if (answer.log === "version does not exist") {
          throw new ForkError(`fork: the remote ${this.url} no longer keeps height ${this.height} (${path}: version does not exist)`);
        }
        return answer;
      } catch (err) {
        if (!(err instanceof NodeUnavailableError))
          throw err instanceof ForkError ? err : new ForkError(`fork: ${path} at the remote ${this.url}: ${(err as Error).message}`);
        lastFailure = err.message;
        if (attempt < FORK_REMOTE_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * attempt));
      }
    }
    throw new ForkError(`fork: the remote ${this.url} did not answer ${path} at height ${this.height} after ${FORK_REMOTE_ATTEMPTS} tries: ${lastFailure}`);
  }
}

/** `<module>/<key>` → the real app's store name and the key inside that store. */
function splitFullKey(fullKey: Uint8Array): { module: string; store: string; key: Uint8Array } {
  const slash = fullKey.indexOf(SLASH);
  if (slash <= 0) throw new ForkError("fork: a key outside every module's store is not read from the remote");
  const module = new TextDecoder().decode(fullKey.subarray(0, slash));
  return { module, store: realStoreName(module), key: fullKey.subarray(slash + 1) };
}

function cachedBytes(entry: Cached): number {
  if ("value" in entry) return entry.value?.length ?? 0;
  return entry.pairs.reduce((sum, [key, value]) => sum + key.length + value.length + ENTRY_OVERHEAD, 0);
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/**
 * Values as Buffers, as the local store hands them out: protobufjs then decodes a `bytes` field as a
 * Buffer too, whose text form some modules read (a Dec kept as bytes, e.g. slashing's min_signed_per_window).
 */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
