import crypto from "node:crypto";
import { copyBytes } from "../store/byteSlab.js";
import type { PackedWrites } from "../store/packedWrites.js";
import { uint64Bytes } from "../store/keyEncoding.js";
import { utf8 } from "../store/moduleStore.js";
import type { StateBatch, VersionedStore } from "../store/versionedStore.js";

/**
 * What the node keeps of each committed height, in the consensus engine's
 * JSON-RPC form (uppercase hex hashes, base64 bytes, 64-bit ints as strings),
 * so the RPC server answers with it as it is and the gateway's services read it
 * the same way from a remote node.
 */
export interface RpcBlockId {
  hash: string;
  parts: { total: number; hash: string };
}

interface RpcCommitSig {
  block_id_flag: number;
  validator_address: string;
  timestamp: string;
  signature: string | null;
}

export interface RpcCommit {
  height: string;
  round: number;
  block_id: RpcBlockId;
  signatures: RpcCommitSig[];
}

interface RpcHeader {
  version: { block: string; app?: string };
  chain_id: string;
  height: string;
  time: string;
  last_block_id: RpcBlockId;
  last_commit_hash: string;
  data_hash: string;
  validators_hash: string;
  next_validators_hash: string;
  consensus_hash: string;
  app_hash: string;
  last_results_hash: string;
  evidence_hash: string;
  proposer_address: string;
}

export interface RpcBlock {
  block_id: RpcBlockId;
  block: {
    header: RpcHeader;
    data: { txs: string[] | null };
    evidence: { evidence: unknown[] | null };
    last_commit: RpcCommit;
  };
}

export interface RpcValidator {
  address: string;
  pub_key: { type: string; value: string };
  voting_power: string;
  proposer_priority: string;
}

export interface RpcEvent {
  type: string;
  attributes: Array<{ key: string; value: string; index: boolean }>;
}

export interface RpcTxResult {
  code?: number;
  data?: string;
  log?: string;
  info?: string;
  gas_wanted: string;
  gas_used: string;
  events: RpcEvent[];
  codespace?: string;
}

export interface RpcBlockResults {
  height: string;
  txs_results: RpcTxResult[] | null;
  begin_block_events: RpcEvent[] | null;
  end_block_events: RpcEvent[] | null;
  validator_updates: null;
  consensus_param_updates: null;
}

/** One committed height: its block, the commit that sealed it, its results, its validator set and app hash. */
export interface CommittedHeight {
  block: RpcBlock;
  commit: RpcCommit;
  results: RpcBlockResults;
  validators: RpcValidator[];
  /** The app hash after executing this height (uppercase hex); the next header carries it. */
  appHash: string;
}

const key = (kind: string, height: number) => new Uint8Array([...utf8(`${kind}/`), ...uint64Bytes(height)]);

export function putCommittedHeight(batch: StateBatch, height: number, record: CommittedHeight): void {
  batch.putMeta(key("block", height), utf8(JSON.stringify(record.block)));
  batch.putMeta(key("commit", height), utf8(JSON.stringify(record.commit)));
  batch.putMeta(key("results", height), utf8(JSON.stringify(record.results)));
  batch.putMeta(key("validators", height), utf8(JSON.stringify(record.validators)));
  batch.putMeta(key("apphash", height), utf8(record.appHash));
}

/** The keys putCommittedHeight wrote for a height (what a revert deletes). */
export function committedHeightKeys(height: number): Uint8Array[] {
  return ["block", "commit", "results", "validators", "apphash"].map((kind) => key(kind, height));
}

async function read<T>(store: VersionedStore, kind: string, height: number): Promise<T | undefined> {
  const bytes = await store.getMeta(key(kind, height));
  return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as T) : undefined;
}

export const getBlock = (store: VersionedStore, height: number) => read<RpcBlock>(store, "block", height);
export const getCommit = (store: VersionedStore, height: number) => read<RpcCommit>(store, "commit", height);
export const getBlockResults = (store: VersionedStore, height: number) => read<RpcBlockResults>(store, "results", height);
export const getValidators = (store: VersionedStore, height: number) => read<RpcValidator[]>(store, "validators", height);

/** The blocks and results of heights `from` to `to`, in two reads (a revert reads what it forgets). */
export async function getBlocksAndResults(
  store: VersionedStore,
  from: number,
  to: number,
): Promise<Array<{ height: number; block?: RpcBlock; results?: RpcBlockResults }>> {
  const heights = Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const parse = <T>(bytes: Uint8Array | undefined) => (bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as T) : undefined);
  const [blocks, results] = await Promise.all([
    store.getMetaMany(heights.map((h) => key("block", h))),
    store.getMetaMany(heights.map((h) => key("results", h))),
  ]);
  return heights.map((height, i) => ({ height, block: parse<RpcBlock>(blocks[i]), results: parse<RpcBlockResults>(results[i]) }));
}

export async function getAppHash(store: VersionedStore, height: number): Promise<string> {
  const bytes = await store.getMeta(key("apphash", height));
  return bytes ? new TextDecoder().decode(bytes) : "";
}

/**
 * The app hash of a height: SHA-256 over the previous app hash and the
 * block's state writes in key order, so it changes exactly when state changes.
 */
export function nextAppHash(previous: string, writes: Array<{ key: Uint8Array; value: Uint8Array | undefined }>): string {
  const hasher = new AppHasher(previous);
  for (const write of writes) hasher.add(write.key, write.value);
  return hasher.digest();
}

/** Writes hashed between two turns of the event loop (nextAppHashInSteps). */
export const APP_HASH_STEP = 50_000;

/** nextAppHash of a genesis import's writes, `step` writes between two turns of the event loop (its progress lines keep coming). */
export async function nextAppHashInSteps(previous: string, writes: PackedWrites, onHashed: (n: number) => void, step = APP_HASH_STEP): Promise<string> {
  const hasher = new AppHasher(previous);
  const { arena } = writes;
  for (let i = 0; i < writes.length; i++) {
    const keyAt = writes.keyAt(i);
    hasher.part(arena.bufferOf(keyAt), arena.offsetOf(keyAt), writes.keyLength(i));
    const valueAt = writes.valueAt(i);
    hasher.part(arena.bufferOf(valueAt), arena.offsetOf(valueAt), Math.max(0, writes.valueLength(i))); // a deletion: no bytes
    if ((i + 1) % step === 0) {
      onHashed(step);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  onHashed(writes.length % step);
  return hasher.digest();
}

/**
 * The app hash's SHA-256 (node:crypto) fed through one reused buffer: each key and value after
 * its length (uint64, big-endian). A genesis import hashes millions of small writes, and a
 * native call per part cost more than the hashing.
 */
class AppHasher {
  private readonly hasher = crypto.createHash("sha256");
  private readonly buffer = Buffer.allocUnsafe(1 << 16);
  private used = 0;

  constructor(previous: string) {
    this.hasher.update(Buffer.from(previous, "hex"));
  }

  add(key: Uint8Array, value: Uint8Array | undefined): void {
    this.part(key, 0, key.length);
    if (value) this.part(value, 0, value.length);
    else this.part(EMPTY, 0, 0);
  }

  digest(): string {
    this.hasher.update(this.buffer.subarray(0, this.used));
    return hex(this.hasher.digest());
  }

  /** The part `length` bytes of `source` from `at`, after its length. */
  part(source: Uint8Array, at: number, length: number): void {
    if (this.used + 8 + length > this.buffer.length) {
      this.hasher.update(this.buffer.subarray(0, this.used));
      this.used = 0;
    }
    // lengths stay under 2^32: the high word is 0
    this.buffer.writeUInt32BE(0, this.used);
    this.buffer.writeUInt32BE(length, this.used + 4);
    this.used += 8;
    if (length > this.buffer.length) {
      this.hasher.update(this.buffer.subarray(0, this.used)).update(source.subarray(at, at + length));
      this.used = 0;
      return;
    }
    copyBytes(source, at, length, this.buffer, this.used);
    this.used += length;
  }
}

const EMPTY = new Uint8Array(0);

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex").toUpperCase();
}

/**
 * The key type of the consensus engine's RPC JSON. It is the engine's wire
 * protocol, which existing clients (@cosmjs/tendermint-rpc) parse strictly, so
 * it keeps the engine's own name rather than the REST API's neutral words.
 */
export const RPC_ED25519_KEY_TYPE = "tendermint/PubKeyEd25519";

export const EMPTY_BLOCK_ID: RpcBlockId = { hash: "", parts: { total: 0, hash: "" } };
