import { createHash } from "node:crypto";
import { MerkleProof } from "cosmjs-types/ibc/core/commitment/v1/commitment";
import { HashOp, LengthOp, type CommitmentProof, type ExistenceProof } from "cosmjs-types/cosmos/ics23/v1/proofs";

/**
 * A counterparty chain's "ibc" store of two entries, hashed here by hand (sha256 over the ops'
 * bytes, as an IAVL tree and the multistore's simple tree hash them; not with the library the node
 * uses): an IAVL inner node (height 1, size 2, version 5) over two leaves, under the simple-tree
 * leaf "ibc" next to another store's hash. It answers the app hash and MerkleProof bytes
 * ([IAVL proof, store proof]) of an entry's presence or of another key's absence.
 */
export const sha256 = (...parts: Uint8Array[]) => Uint8Array.from(createHash("sha256").update(Buffer.concat(parts)).digest());
export const utf8 = (text: string) => new TextEncoder().encode(text);
export const be8 = (n: bigint) => {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(n);
  return Uint8Array.from(out);
};
const varint = (n: number) => Uint8Array.of(n); // every length here is < 128

const leafOp = (prefix: Uint8Array) => ({ hash: HashOp.SHA256, prehashKey: HashOp.NO_HASH, prehashValue: HashOp.SHA256, length: LengthOp.VAR_PROTO, prefix });
/** The leaf hash both SDK proof specs define: sha256(prefix ‖ len ‖ key ‖ len ‖ sha256(value)). */
const leafHash = (prefix: Uint8Array, key: Uint8Array, value: Uint8Array) => sha256(prefix, varint(key.length), key, varint(32), sha256(value));

const IAVL_LEAF_PREFIX = Uint8Array.of(0x00, 0x02, 0x0a);
const IAVL_INNER_PREFIX = Uint8Array.of(0x02, 0x04, 0x0a);
const OTHER_STORES = sha256(utf8("the counterparty's other stores"));

export interface Entry {
  key: string;
  value: Uint8Array;
}

export interface CounterpartyStore {
  appHash: Uint8Array;
  /** MerkleProof bytes of one of the two entries. */
  proveEntry(key: string): Uint8Array;
  /** MerkleProof bytes of a key's absence: it must sort after both entries (the right entry is its left neighbour). */
  proveAbsence(key: string): Uint8Array;
}

export function counterpartyStore(a: Entry, b: Entry): CounterpartyStore {
  const [left, right] = a.key < b.key ? [a, b] : [b, a];
  const leftHash = leafHash(IAVL_LEAF_PREFIX, utf8(left.key), left.value);
  const rightHash = leafHash(IAVL_LEAF_PREFIX, utf8(right.key), right.value);
  const iavlRoot = sha256(IAVL_INNER_PREFIX, varint(32), leftHash, varint(32), rightHash);
  const storePrefix = Uint8Array.from([0x01, ...OTHER_STORES]);
  const appHash = sha256(storePrefix, leafHash(Uint8Array.of(0), utf8("ibc"), iavlRoot));
  const store: ExistenceProof = {
    key: utf8("ibc"),
    value: iavlRoot,
    leaf: leafOp(Uint8Array.of(0)),
    path: [{ hash: HashOp.SHA256, prefix: storePrefix, suffix: new Uint8Array() }],
  };
  const exist = (entry: Entry): ExistenceProof => {
    const path =
      entry === left
        ? { hash: HashOp.SHA256, prefix: Uint8Array.from([...IAVL_INNER_PREFIX, 32]), suffix: Uint8Array.from([32, ...rightHash]) }
        : { hash: HashOp.SHA256, prefix: Uint8Array.from([...IAVL_INNER_PREFIX, 32, ...leftHash, 32]), suffix: new Uint8Array() };
    return { key: utf8(entry.key), value: entry.value, leaf: leafOp(IAVL_LEAF_PREFIX), path: [path] };
  };
  const encode = (proofs: CommitmentProof[]) => MerkleProof.encode(MerkleProof.fromPartial({ proofs })).finish();
  return {
    appHash,
    proveEntry(key) {
      const entry = key === left.key ? left : key === right.key ? right : undefined;
      if (!entry) throw new Error(`no entry ${key}`);
      return encode([{ exist: exist(entry) }, { exist: store }]);
    },
    proveAbsence(key) {
      if (key <= right.key) throw new Error(`${key} does not sort after ${right.key}`);
      return encode([{ nonexist: { key: utf8(key), left: exist(right) } }, { exist: store }]);
    },
  };
}
