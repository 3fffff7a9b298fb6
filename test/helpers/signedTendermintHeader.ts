import { createHash } from "node:crypto";
import { ed25519 } from "@noble/curves/ed25519.js";
import { BinaryWriter } from "cosmjs-types/binary";
import { Timestamp } from "cosmjs-types/google/protobuf/timestamp";
import { Header as IbcHeader } from "cosmjs-types/ibc/lightclients/tendermint/v1/tendermint";
import { BlockID, type Header } from "cosmjs-types/tendermint/types/types";
import { BlockIDFlag, SimpleValidator, type ValidatorSet } from "cosmjs-types/tendermint/types/validator";
import { Consensus } from "cosmjs-types/tendermint/version/types";
import type { Any } from "cosmjs-types/google/protobuf/any";

/**
 * A counterparty Tendermint chain on the test side: ed25519 validator keys, their validator set,
 * and 07-tendermint headers they sign as Tendermint v0.34 does (header hash = RFC 6962 tree over
 * the proto-encoded fields; precommit sign bytes = the length-delimited CanonicalVote). Encoded
 * with cosmjs-types and written out here, independently of the node's code.
 */
const sha256 = (...parts: Uint8Array[]) => Uint8Array.from(createHash("sha256").update(Buffer.concat(parts)).digest());

function merkleRoot(items: Uint8Array[]): Uint8Array {
  if (items.length === 0) return sha256();
  if (items.length === 1) return sha256(Uint8Array.of(0), items[0]!);
  let split = 1;
  while (split * 2 < items.length) split *= 2;
  return sha256(Uint8Array.of(1), merkleRoot(items.slice(0, split)), merkleRoot(items.slice(split)));
}

export interface TestValidator {
  secret: Uint8Array;
  publicKey: Uint8Array;
  address: Uint8Array;
  power: bigint;
}

export function testValidators(name: string, count: number, power = 10n): TestValidator[] {
  return Array.from({ length: count }, (_, i) => {
    const secret = sha256(new TextEncoder().encode(`${name} validator ${i}`));
    const publicKey = ed25519.getPublicKey(secret);
    return { secret, publicKey, address: sha256(publicKey).slice(0, 20), power };
  });
}

function validatorSet(validators: TestValidator[]): ValidatorSet {
  const list = validators.map((v) => ({ address: v.address, pubKey: { ed25519: v.publicKey }, votingPower: v.power, proposerPriority: 0n }));
  return { validators: list, proposer: list[0], totalVotingPower: validators.reduce((s, v) => s + v.power, 0n) };
}

export function validatorSetHash(validators: TestValidator[]): Uint8Array {
  return merkleRoot(validators.map((v) => SimpleValidator.encode({ pubKey: { ed25519: v.publicKey }, votingPower: v.power }).finish()));
}

const wrapper = (write: (w: BinaryWriter) => void, empty: boolean) => {
  const w = BinaryWriter.create();
  if (!empty) write(w);
  return w.finish();
};

function headerHash(h: Header): Uint8Array {
  const bytes = (b: Uint8Array) => wrapper((w) => w.uint32(10).bytes(b), b.length === 0);
  return merkleRoot([
    Consensus.encode(h.version).finish(),
    wrapper((w) => w.uint32(10).string(h.chainId), h.chainId === ""),
    wrapper((w) => w.uint32(8).int64(h.height), h.height === 0n),
    Timestamp.encode(h.time).finish(),
    BlockID.encode(h.lastBlockId).finish(),
    ...[
      h.lastCommitHash,
      h.dataHash,
      h.validatorsHash,
      h.nextValidatorsHash,
      h.consensusHash,
      h.appHash,
      h.lastResultsHash,
      h.evidenceHash,
      h.proposerAddress,
    ].map(bytes),
  ]);
}

function precommitSignBytes(chainId: string, height: bigint, blockId: BlockID, time: Timestamp): Uint8Array {
  const parts = BinaryWriter.create().uint32(8).uint32(blockId.partSetHeader.total).uint32(18).bytes(blockId.partSetHeader.hash).finish();
  const canonicalId = BinaryWriter.create().uint32(10).bytes(blockId.hash).uint32(18).bytes(parts).finish();
  const vote = BinaryWriter.create().uint32(8).int32(2).uint32(17).sfixed64(height); // PRECOMMIT, height, round 0 omitted
  vote.uint32(34).bytes(canonicalId).uint32(42).bytes(Timestamp.encode(time).finish()).uint32(50).string(chainId);
  return BinaryWriter.create().bytes(vote.finish()).finish();
}

export interface HeaderSpec {
  chainId: string;
  height: bigint;
  timeSeconds: bigint;
  appHash: Uint8Array;
  validators: TestValidator[];
  nextValidators?: TestValidator[];
  /** who signs (default: all of `validators`) */
  signers?: TestValidator[];
  trustedHeight: { revisionNumber: bigint; revisionHeight: bigint };
  trustedValidators: TestValidator[];
  /** change the header after it is signed (a forged field) */
  afterSigning?: (header: Header) => void;
  corruptSignature?: number;
}

/** A MsgUpdateClient header packed in an Any. */
export function signedHeaderAny(spec: HeaderSpec): Any {
  return { typeUrl: "/ibc.lightclients.tendermint.v1.Header", value: IbcHeader.encode(signedHeader(spec)).finish() };
}

/** A 07-tendermint header: the signed header, its validator set and the trusted validators. */
export function signedHeader(spec: HeaderSpec): IbcHeader {
  const time = { seconds: spec.timeSeconds, nanos: 0 };
  const header: Header = {
    version: { block: 11n, app: 0n },
    chainId: spec.chainId,
    height: spec.height,
    time,
    lastBlockId: { hash: sha256(Uint8Array.of(1)), partSetHeader: { total: 1, hash: sha256(Uint8Array.of(2)) } },
    lastCommitHash: sha256(Uint8Array.of(3)),
    dataHash: sha256(new Uint8Array()),
    validatorsHash: validatorSetHash(spec.validators),
    nextValidatorsHash: validatorSetHash(spec.nextValidators ?? spec.validators),
    consensusHash: sha256(Uint8Array.of(4)),
    appHash: spec.appHash,
    lastResultsHash: sha256(new Uint8Array()),
    evidenceHash: sha256(new Uint8Array()),
    proposerAddress: spec.validators[0]!.address,
  };
  const blockId = { hash: headerHash(header), partSetHeader: { total: 1, hash: sha256(Uint8Array.of(5)) } };
  const signBytes = precommitSignBytes(spec.chainId, spec.height, blockId, time);
  const signers = spec.signers ?? spec.validators;
  const signatures = spec.validators.map((v, i) => {
    if (!signers.includes(v))
      return {
        blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_ABSENT,
        validatorAddress: new Uint8Array(),
        timestamp: { seconds: 0n, nanos: 0 },
        signature: new Uint8Array(),
      };
    const signature = ed25519.sign(signBytes, v.secret);
    if (spec.corruptSignature === i) signature[0] = signature[0]! ^ 0xff;
    return { blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT, validatorAddress: v.address, timestamp: time, signature };
  });
  spec.afterSigning?.(header);
  return IbcHeader.fromPartial({
    signedHeader: { header, commit: { height: spec.height, round: 0, blockId, signatures } },
    validatorSet: validatorSet(spec.validators),
    trustedHeight: spec.trustedHeight,
    trustedValidators: validatorSet(spec.trustedValidators),
  });
}
