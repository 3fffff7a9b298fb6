import { expect } from "chai";
import path from "node:path";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { MerkleProof } from "cosmjs-types/ibc/core/commitment/v1/commitment";
import { HashOp, LengthOp, type CommitmentProof, type ExistenceProof } from "cosmjs-types/cosmos/ics23/v1/proofs";
import type { Packet } from "cosmjs-types/ibc/core/channel/v1/channel";
import { tempDir } from "../helpers/tempDir.js";
import { startIbcTestChain, stopIbcTestChain, type IbcTestChain } from "../helpers/ibcTestChain.js";

/**
 * ICS-23 proofs against a consensus state's root: the test builds an IAVL-shaped existence proof
 * (leaf and inner ops as an IAVL store of the counterparty would give them) chained under a
 * Tendermint simple-tree proof of the "ibc" store, computes the app hash by hand (sha256 over the
 * ops' bytes, not with the library the node uses), writes it as the root of the development
 * genesis's consensus state 1-1200 of 07-tendermint-0, and sends MsgRecvPacket on transfer/channel-0.
 */
const sha256 = (...parts: Uint8Array[]) => Uint8Array.from(createHash("sha256").update(Buffer.concat(parts)).digest());
const utf8 = (text: string) => new TextEncoder().encode(text);
const varint = (n: number) => Uint8Array.of(n); // every length here is < 128
const be8 = (n: bigint) => {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(n);
  return Uint8Array.from(out);
};
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();

const leafOp = (prefix: Uint8Array) => ({ hash: HashOp.SHA256, prehashKey: HashOp.NO_HASH, prehashValue: HashOp.SHA256, length: LengthOp.VAR_PROTO, prefix });
/** The leaf hash both SDK proof specs define: sha256(prefix ‖ len ‖ key ‖ len ‖ sha256(value)). */
const leafHash = (prefix: Uint8Array, key: Uint8Array, value: Uint8Array) => sha256(prefix, varint(key.length), key, varint(32), sha256(value));

/** An IAVL leaf (height 0, size 1, version 5) under one inner node (height 1, size 2) as its left child. */
const IAVL_LEAF_PREFIX = Uint8Array.of(0x00, 0x02, 0x0a);
const IAVL_INNER_PREFIX = Uint8Array.of(0x02, 0x04, 0x0a, 0x20);
const IAVL_SIBLING = sha256(utf8("the right neighbour in the counterparty's ibc store"));
/** The "ibc" store's leaf in the multistore's simple tree, as the right child next to another store's hash. */
const STORE_SIBLING = sha256(utf8("the counterparty's other stores"));

function chainedProof(key: string, value: Uint8Array) {
  const iavlSuffix = Uint8Array.from([0x20, ...IAVL_SIBLING]);
  const iavlRoot = sha256(IAVL_INNER_PREFIX, leafHash(IAVL_LEAF_PREFIX, utf8(key), value), iavlSuffix);
  const storePrefix = Uint8Array.from([0x01, ...STORE_SIBLING]);
  const appHash = sha256(storePrefix, leafHash(Uint8Array.of(0), utf8("ibc"), iavlRoot));
  const iavl: ExistenceProof = {
    key: utf8(key),
    value,
    leaf: leafOp(IAVL_LEAF_PREFIX),
    path: [{ hash: HashOp.SHA256, prefix: IAVL_INNER_PREFIX, suffix: iavlSuffix }],
  };
  const store: ExistenceProof = {
    key: utf8("ibc"),
    value: iavlRoot,
    leaf: leafOp(Uint8Array.of(0)),
    path: [{ hash: HashOp.SHA256, prefix: storePrefix, suffix: new Uint8Array() }],
  };
  return { iavl, store, iavlRoot, appHash };
}
const encodeProof = (proofs: CommitmentProof[]) => MerkleProof.encode(MerkleProof.fromPartial({ proofs })).finish();

const packet: Packet = {
  sequence: 7n,
  sourcePort: "transfer",
  sourceChannel: "channel-9",
  destinationPort: "transfer",
  destinationChannel: "channel-0",
  data: utf8('{"amount":"5","denom":"uother","receiver":"x","sender":"y"}'),
  timeoutHeight: { revisionNumber: 9n, revisionHeight: 1n },
  timeoutTimestamp: 0n,
};
/** CommitPacket, computed here from its definition. */
const commitment = sha256(
  be8(packet.timeoutTimestamp),
  be8(packet.timeoutHeight.revisionNumber),
  be8(packet.timeoutHeight.revisionHeight),
  sha256(packet.data),
);
const COMMITMENT_KEY = "commitments/ports/transfer/channels/channel-9/sequences/7";
const proof = chainedProof(COMMITMENT_KEY, commitment);
const PROOF_HEIGHT = { revisionNumber: 1n, revisionHeight: 1200n };

describe("interop: ICS-23 proofs of the IBC keepers against the client's consensus root (cosmjs)", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let chain: IbcTestChain | undefined;
  let signer: string;
  let outcomes: IbcTestChain["io"];
  const recv = (proofBytes: Uint8Array, change: Partial<Packet> = {}) => ({
    typeUrl: "/ibc.core.channel.v1.MsgRecvPacket",
    value: { signer, packet: { ...packet, ...change }, proofCommitment: proofBytes, proofHeight: PROOF_HEIGHT },
  });

  before(async () => {
    chain = await startIbcTestChain(home, async () => {
      // the counterparty's app hash at 1-1200 becomes the one our proofs commit to
      const genesisFile = path.join(home, "config", "genesis.json");
      const genesis = JSON.parse(await readFile(genesisFile, "utf8"));
      const states = genesis.app_state.ibc.client_genesis.clients_consensus[0].consensus_states as Array<{
        height: { revision_height: string };
        consensus_state: { root: { hash: string } };
      }>;
      const at1200 = states.find((s) => s.height.revision_height === "1200")!;
      at1200.consensus_state.root.hash = Buffer.from(proof.appHash).toString("base64");
      await writeFile(genesisFile, JSON.stringify(genesis, null, 2));
    });
    ({ signer, io: outcomes } = chain);
  });
  after(() => stopIbcTestChain(chain));

  it("a valid chained proof of the packet commitment is accepted: the packet is received (its receiver does not decode: an error acknowledgement)", async () => {
    const answer = await outcomes.outcome(recv(encodeProof([{ exist: proof.iavl }, { exist: proof.store }])));
    expect({ codespace: answer.codespace, code: answer.code }, answer.log).to.deep.equal({ codespace: "", code: 0 });
    expect(answer.events.get("write_acknowledgement")?.packet_ack).to.equal('{"error":"decoding bech32 failed: x too short"}');
  });

  const wrap =
    "receive packet verification failed: couldn't verify counterparty packet commitment: failed packet commitment verification for client (07-tendermint-0)";

  it("a proof of another packet (other data, so another commitment) fails at the IAVL level with the SDK's error", async () => {
    const other = { data: utf8('{"amount":"500","denom":"uother","receiver":"x","sender":"y"}') };
    const otherCommitment = sha256(be8(0n), be8(9n), be8(1n), sha256(other.data));
    await outcomes.refused(
      recv(encodeProof([{ exist: proof.iavl }, { exist: proof.store }]), other),
      "commitment",
      2,
      `${wrap}: chained membership proof failed to verify membership of value: ${hex(otherCommitment)} in subroot ${hex(proof.iavlRoot)} at index 0. Please ensure the path and value are both correct.: invalid proof`,
    );
  });

  it("a tampered store proof (another sibling store hash) does not commit to the consensus root", async () => {
    const tampered = {
      ...proof.store,
      path: [{ hash: HashOp.SHA256, prefix: Uint8Array.from([0x01, ...sha256(utf8("forged")).slice(0)]), suffix: new Uint8Array() }],
    };
    const forgedRoot = sha256(tampered.path[0]!.prefix, leafHash(Uint8Array.of(0), utf8("ibc"), proof.iavlRoot));
    await outcomes.refused(
      recv(encodeProof([{ exist: proof.iavl }, { exist: tampered }])),
      "commitment",
      2,
      `${wrap}: proof did not commit to expected root: ${hex(proof.appHash)}, got: ${hex(forgedRoot)}.`,
    );
  });

  it("a proof under another key (another sequence) and a non-existence proof are refused", async () => {
    await outcomes.refused(
      recv(encodeProof([{ exist: proof.iavl }, { exist: proof.store }]), { sequence: 8n }),
      "commitment",
      2,
      `${wrap}: chained membership proof failed to verify membership of value`,
    );
    await outcomes.refused(
      recv(encodeProof([{ nonexist: { key: utf8(COMMITMENT_KEY), left: proof.iavl } }, { exist: proof.store }])),
      "commitment",
      2,
      `${wrap}: chained membership proof contains nonexistence proof at index 0.`,
    );
  });
});
