import { fieldText } from "../../../../codec/fieldText.js";
import { sha256 } from "@noble/hashes/sha2.js";
import protobuf from "protobufjs";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { concatBytes } from "../../../store/keyEncoding.js";
import { heightPart } from "../host/heights.js";

/**
 * The hashes Tendermint v0.34 signs and compares, over the 07-tendermint header as the node's codec
 * decodes it: the RFC 6962 simple Merkle tree (crypto/merkle), Header.Hash (its 14 fields, each
 * proto-encoded, scalars in gogo wrapper messages), ValidatorSet.Hash (SimpleValidator per
 * validator) and the canonical vote's sign bytes (CanonicalVote, length-delimited).
 */

const bytesOf = (value: unknown) => (value as Uint8Array | undefined) ?? new Uint8Array();
const message = (value: unknown) => (value ?? {}) as ProtoMessage;

/** HashFromByteSlices: leaves sha256(0x00‖item), inner nodes sha256(0x01‖left‖right), split at the largest power of two below n. */
function simpleMerkleRoot(items: Uint8Array[]): Uint8Array {
  if (items.length === 0) return sha256(new Uint8Array());
  if (items.length === 1) return sha256(concatBytes(Uint8Array.of(0), items[0]!));
  let split = 1;
  while (split * 2 < items.length) split *= 2;
  return sha256(concatBytes(Uint8Array.of(1), simpleMerkleRoot(items.slice(0, split)), simpleMerkleRoot(items.slice(split))));
}

/** google.protobuf.Timestamp (gogo stdtime): seconds and nanos, zero fields omitted. */
function timestampBytes(time: unknown): Uint8Array {
  const t = message(time);
  const w = protobuf.Writer.create();
  const seconds = heightPart(t.seconds);
  if (seconds !== 0n) w.uint32(8).int64(seconds.toString());
  const nanos = Number(t.nanos ?? 0);
  if (nanos !== 0) w.uint32(16).int32(nanos);
  return w.finish();
}

function blockIdBytes(blockId: unknown): Uint8Array {
  const id = message(blockId);
  const parts = message(id.part_set_header);
  const w = protobuf.Writer.create();
  if (bytesOf(id.hash).length) w.uint32(10).bytes(bytesOf(id.hash));
  const pw = protobuf.Writer.create();
  if (Number(parts.total ?? 0) !== 0) pw.uint32(8).uint32(Number(parts.total));
  if (bytesOf(parts.hash).length) pw.uint32(18).bytes(bytesOf(parts.hash));
  w.uint32(18).bytes(pw.finish());
  return w.finish();
}

/** A gogo wrapper message (StringValue, Int64Value, BytesValue): field 1, omitted when empty. */
function wrapped(kind: "string" | "int64" | "bytes", value: unknown): Uint8Array {
  const w = protobuf.Writer.create();
  if (kind === "string" && fieldText(value) !== "") w.uint32(10).string(fieldText(value));
  if (kind === "int64" && heightPart(value) !== 0n) w.uint32(8).int64(heightPart(value).toString());
  if (kind === "bytes" && bytesOf(value).length) w.uint32(10).bytes(bytesOf(value));
  return w.finish();
}

/** Header.Hash of Tendermint v0.34 (types/block.go). */
export function headerHash(header: ProtoMessage): Uint8Array {
  const version = message(header.version);
  const vw = protobuf.Writer.create();
  if (heightPart(version.block) !== 0n) vw.uint32(8).uint64(heightPart(version.block).toString());
  if (heightPart(version.app) !== 0n) vw.uint32(16).uint64(heightPart(version.app).toString());
  return simpleMerkleRoot([
    vw.finish(),
    wrapped("string", header.chain_id),
    wrapped("int64", header.height),
    timestampBytes(header.time),
    blockIdBytes(header.last_block_id),
    ...[
      "last_commit_hash",
      "data_hash",
      "validators_hash",
      "next_validators_hash",
      "consensus_hash",
      "app_hash",
      "last_results_hash",
      "evidence_hash",
      "proposer_address",
    ].map((field) => wrapped("bytes", header[field])),
  ]);
}

/** The ed25519 key of a validator (tendermint.crypto.PublicKey's oneof), or undefined for another key type. */
export const ed25519KeyOf = (validator: ProtoMessage) => message(validator.pub_key).ed25519 as Uint8Array | undefined;

/** ValidatorSet.Hash: the simple tree over each validator's SimpleValidator{pub_key, voting_power}. */
export function validatorSetHash(validatorSet: ProtoMessage): Uint8Array {
  const validators = (validatorSet.validators ?? []) as ProtoMessage[];
  return simpleMerkleRoot(
    validators.map((validator) => {
      const key = protobuf.Writer.create();
      const ed25519 = ed25519KeyOf(validator);
      if (ed25519) key.uint32(10).bytes(ed25519);
      const w = protobuf.Writer.create().uint32(10).bytes(key.finish());
      const power = heightPart(validator.voting_power);
      if (power !== 0n) w.uint32(16).int64(power.toString());
      return w.finish();
    }),
  );
}

/** Commit.VoteSignBytes: the length-delimited CanonicalVote of the precommit behind signature `index`. */
export function voteSignBytes(chainId: string, commit: ProtoMessage, index: number): Uint8Array {
  const sig = ((commit.signatures ?? []) as ProtoMessage[])[index]!;
  const blockId = message(commit.block_id);
  const parts = message(blockId.part_set_header);
  const w = protobuf.Writer.create();
  w.uint32(8).int32(2); // SignedMsgType PRECOMMIT
  if (heightPart(commit.height) !== 0n) w.uint32(17).sfixed64(heightPart(commit.height).toString());
  if (Number(commit.round ?? 0) !== 0) w.uint32(25).sfixed64(Number(commit.round));
  const canonicalParts = protobuf.Writer.create();
  if (Number(parts.total ?? 0) !== 0) canonicalParts.uint32(8).uint32(Number(parts.total));
  if (bytesOf(parts.hash).length) canonicalParts.uint32(18).bytes(bytesOf(parts.hash));
  const canonicalId = protobuf.Writer.create();
  if (bytesOf(blockId.hash).length) canonicalId.uint32(10).bytes(bytesOf(blockId.hash));
  canonicalId.uint32(18).bytes(canonicalParts.finish());
  w.uint32(34).bytes(canonicalId.finish());
  w.uint32(42).bytes(timestampBytes(sig.timestamp));
  if (chainId !== "") w.uint32(50).string(chainId);
  const body = w.finish();
  return protobuf.Writer.create().bytes(body).finish();
}
