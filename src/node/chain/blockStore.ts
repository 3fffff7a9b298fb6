import { sha256 } from "@noble/hashes/sha2.js";
import { uint64Bytes } from "../store/keyEncoding.js";
import { utf8 } from "../store/moduleStore.js";
import type { StateBatch, VersionedStore } from "../store/versionedStore.js";

/** What the node records of each committed block. */
export interface BlockMeta {
  height: number;
  time: string;
  /** Uppercase hex. */
  appHash: string;
  /** Uppercase hex: a hash over the header fields. */
  hash: string;
  numTxs: number;
}

const BLOCK_PREFIX = utf8("block/");

export function putBlockMeta(batch: StateBatch, meta: BlockMeta): void {
  batch.putMeta(new Uint8Array([...BLOCK_PREFIX, ...uint64Bytes(meta.height)]), utf8(JSON.stringify(meta)));
}

export async function getBlockMeta(store: VersionedStore, height: number): Promise<BlockMeta | undefined> {
  const bytes = await store.getMeta(new Uint8Array([...BLOCK_PREFIX, ...uint64Bytes(height)]));
  return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as BlockMeta) : undefined;
}

/**
 * The app hash of a height: SHA-256 over the previous app hash and the
 * block's state writes, so it changes exactly when state changes and the
 * same writes always give the same hash.
 */
export function nextAppHash(previous: string, writesDigest: Uint8Array): string {
  return Buffer.from(sha256(new Uint8Array([...Buffer.from(previous, "hex"), ...writesDigest]))).toString("hex").toUpperCase();
}

export function blockHash(chainId: string, height: number, time: string, appHash: string): string {
  return Buffer.from(sha256(utf8(`${chainId}/${height}/${time}/${appHash}`))).toString("hex").toUpperCase();
}
