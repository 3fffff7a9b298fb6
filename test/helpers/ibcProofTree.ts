import { createHash } from "node:crypto";
import { MerkleProof } from "cosmjs-types/ibc/core/commitment/v1/commitment";
import { HashOp, LengthOp, type ExistenceProof, type InnerOp } from "cosmjs-types/cosmos/ics23/v1/proofs";

/**
 * A counterparty's "ibc" (or other) store built on the test side: an IAVL-shaped binary tree over the given
 * keys (leaf prefix 00 02 0a, inner nodes 02 04 0a; the ops as an IAVL store's proofs give them),
 * under a Tendermint simple-tree leaf of the store's name next to a sibling store. The app hash is computed here
 * with node:crypto; `proof(key)` is the MerkleProof (IAVL existence proof, then the store's) a
 * relayer would send.
 */
const sha256 = (...parts: Uint8Array[]) => Uint8Array.from(createHash("sha256").update(Buffer.concat(parts)).digest());
const utf8 = (text: string) => new TextEncoder().encode(text);
const lengthPrefixed = (bytes: Uint8Array) => Uint8Array.from([...varint(bytes.length), ...bytes]);
function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 0x80; n >>>= 7) out.push((n & 0x7f) | 0x80);
  return [...out, n];
}

const LEAF_PREFIX = Uint8Array.of(0x00, 0x02, 0x0a);
const INNER_PREFIX = Uint8Array.of(0x02, 0x04, 0x0a);
const STORE_SIBLING = sha256(utf8("the counterparty's other stores"));
const leafOp = (prefix: Uint8Array) => ({ hash: HashOp.SHA256, prehashKey: HashOp.NO_HASH, prehashValue: HashOp.SHA256, length: LengthOp.VAR_PROTO, prefix });
const leafHash = (prefix: Uint8Array, key: Uint8Array, value: Uint8Array) => sha256(prefix, lengthPrefixed(key), lengthPrefixed(sha256(value)));

interface Node {
  hash: Uint8Array;
  /** each leaf's path from itself up to this node */
  paths: Map<string, InnerOp[]>;
}

function build(leaves: Array<{ key: string; hash: Uint8Array }>): Node {
  if (leaves.length === 1) return { hash: leaves[0]!.hash, paths: new Map([[leaves[0]!.key, []]]) };
  const half = Math.ceil(leaves.length / 2);
  const [left, right] = [build(leaves.slice(0, half)), build(leaves.slice(half))];
  const size = Uint8Array.of(0x20);
  const paths = new Map<string, InnerOp[]>();
  for (const [key, path] of left.paths) {
    paths.set(key, [...path, { hash: HashOp.SHA256, prefix: Uint8Array.from([...INNER_PREFIX, 0x20]), suffix: Uint8Array.from([0x20, ...right.hash]) }]);
  }
  for (const [key, path] of right.paths) {
    paths.set(key, [...path, { hash: HashOp.SHA256, prefix: Uint8Array.from([...INNER_PREFIX, 0x20, ...left.hash, 0x20]), suffix: new Uint8Array() }]);
  }
  return { hash: sha256(INNER_PREFIX, size, left.hash, size, right.hash), paths };
}

export function ibcStoreTree(entries: Record<string, Uint8Array>, storeName = "ibc") {
  const keys = Object.keys(entries);
  const root = build(keys.map((key) => ({ key, hash: leafHash(LEAF_PREFIX, utf8(key), entries[key]!) })));
  const storePrefix = Uint8Array.from([0x01, ...STORE_SIBLING]);
  const appHash = sha256(storePrefix, leafHash(Uint8Array.of(0), utf8(storeName), root.hash));
  const store: ExistenceProof = {
    key: utf8(storeName),
    value: root.hash,
    leaf: leafOp(Uint8Array.of(0)),
    path: [{ hash: HashOp.SHA256, prefix: storePrefix, suffix: new Uint8Array() }],
  };
  const proof = (key: string) => {
    const iavl: ExistenceProof = { key: utf8(key), value: entries[key]!, leaf: leafOp(LEAF_PREFIX), path: root.paths.get(key)! };
    return MerkleProof.encode(MerkleProof.fromPartial({ proofs: [{ exist: iavl }, { exist: store }] })).finish();
  };
  return { appHash, proof };
}
