import { concatBytes, uint64Bytes } from "../store/keyEncoding.js";
import { utf8 } from "../store/moduleStore.js";
import type { StateBatch, VersionedStore } from "../store/versionedStore.js";
import type { RpcTxResult } from "./blockStore.js";

/** A committed transaction as the `tx` RPC method returns it. */
export interface IndexedTx {
  hash: string;
  height: string;
  index: number;
  tx_result: RpcTxResult;
  /** base64 of the tx bytes */
  tx: string;
}

const TX = utf8("tx/");
const POSITION = utf8("txpos/");
const EVENT = utf8("ev/");

export function position(height: number, index: number): Uint8Array {
  const out = new Uint8Array(12);
  out.set(uint64Bytes(height), 0);
  new DataView(out.buffer).setUint32(8, index);
  return out;
}

export function readPosition(bytes: Uint8Array): { height: number; index: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { height: Number(view.getBigUint64(0)), index: view.getUint32(8) };
}

/** Indexes a transaction by hash, by position (height, index) and by every indexed event attribute "type.key". */
export function indexTx(batch: StateBatch, tx: IndexedTx): void {
  const hashBytes = Buffer.from(tx.hash, "hex");
  const at = position(Number(tx.height), tx.index);
  batch.putMeta(concatBytes(TX, hashBytes), utf8(JSON.stringify(tx)));
  batch.putMeta(concatBytes(POSITION, at), hashBytes);
  for (const event of tx.tx_result.events) {
    for (const attribute of event.attributes) {
      if (!attribute.index) continue;
      const composite = `${event.type}.${Buffer.from(attribute.key, "base64").toString()}`;
      const value = Buffer.from(attribute.value, "base64").toString();
      batch.putMeta(eventKey(composite, value, at), hashBytes);
    }
  }
}

export function eventKey(composite: string, value: string, at: Uint8Array): Uint8Array {
  return concatBytes(EVENT, utf8(composite), Uint8Array.of(0), utf8(value), Uint8Array.of(0), at);
}

export function eventPrefix(composite: string, value?: string): Uint8Array {
  return value === undefined
    ? concatBytes(EVENT, utf8(composite), Uint8Array.of(0))
    : concatBytes(EVENT, utf8(composite), Uint8Array.of(0), utf8(value), Uint8Array.of(0));
}

export async function getIndexedTx(store: VersionedStore, hash: Uint8Array): Promise<IndexedTx | undefined> {
  const bytes = await store.getMeta(concatBytes(TX, hash));
  return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as IndexedTx) : undefined;
}

/** Every indexed transaction position with its hash, in (height, index) order. */
export async function* allPositions(store: VersionedStore): AsyncGenerator<{ height: number; index: number; hash: Uint8Array }> {
  for await (const [key, hash] of store.iterateMeta(POSITION)) yield { ...readPosition(key.subarray(POSITION.length)), hash };
}

/** Event index entries under a prefix: the attribute value and the position. */
export async function* eventEntries(
  store: VersionedStore,
  prefix: Uint8Array,
): AsyncGenerator<{ value: string; height: number; index: number; hash: Uint8Array }> {
  for await (const [key, hash] of store.iterateMeta(prefix)) {
    const rest = key.subarray(EVENT.length);
    const firstZero = rest.indexOf(0);
    const tail = rest.subarray(firstZero + 1);
    const value = new TextDecoder().decode(tail.subarray(0, tail.length - 13));
    yield { value, ...readPosition(tail.subarray(tail.length - 12)), hash };
  }
}
