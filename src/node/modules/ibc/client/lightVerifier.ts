import { fieldText } from "../../../../codec/fieldText.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { goDuration, unixNanosText } from "../host/goText.js";
import { heightPart } from "../host/heights.js";
import { ed25519KeyOf, headerHash, validatorSetHash, voteSignBytes } from "./tendermintHashes.js";

/**
 * Tendermint v0.34's light client verification (light/verifier.go and types/validator_set.go
 * VerifyCommitLight / VerifyCommitLightTrusting) over headers as the node's codec decodes them.
 * Its errors are plain Go errors (no ABCI code): thrown here as LightError with Go's texts.
 */
export class LightError extends Error {}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();
const bytesOf = (value: unknown) => (value as Uint8Array | undefined) ?? new Uint8Array();
const equal = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
export const nanosOf = (time: unknown) => {
  const t = (time ?? {}) as ProtoMessage;
  return heightPart(t.seconds) * 1_000_000_000n + heightPart(t.nanos);
};

/** What light.Verify needs of the trusted side: reconstructed from the consensus state by 07-tendermint. */
export interface TrustedHeader {
  chainId: string;
  height: bigint;
  timeNanos: bigint;
  nextValidatorsHash: Uint8Array;
}
export interface LightParams {
  trustingPeriodNanos: bigint;
  nowNanos: bigint;
  maxClockDriftNanos: bigint;
  trustLevel: { numerator: bigint; denominator: bigint };
}

/** light.Verify: adjacent headers by the validators hash chain, others by the trust level of the trusted validators. */
export function lightVerify(trusted: TrustedHeader, trustedVals: ProtoMessage, signedHeader: ProtoMessage, vals: ProtoMessage, params: LightParams): void {
  const header = (signedHeader.header ?? {}) as ProtoMessage;
  const commit = (signedHeader.commit ?? {}) as ProtoMessage;
  const height = heightPart(header.height);
  const adjacent = height === trusted.height + 1n;
  const expiry = trusted.timeNanos + params.trustingPeriodNanos;
  if (!(expiry > params.nowNanos)) {
    throw new LightError(`old header has expired at ${unixNanosText(expiry)} (now: ${unixNanosText(params.nowNanos)})`);
  }
  try {
    verifyNewHeaderAndVals(trusted, header, vals, params);
  } catch (err) {
    throw new LightError(`invalid header: ${(err as Error).message}`);
  }
  if (adjacent) {
    if (!equal(bytesOf(header.validators_hash), trusted.nextValidatorsHash)) {
      throw new LightError(
        `expected old header next validators (${hex(trusted.nextValidatorsHash)}) to match those from new header (${hex(bytesOf(header.validators_hash))})`,
      );
    }
  } else {
    try {
      verifyCommitLightTrusting(trustedVals, trusted.chainId, commit, params.trustLevel);
    } catch (err) {
      if (err instanceof NotEnoughVotingPower) throw new LightError(`cant trust new val set: ${err.message}`);
      throw err;
    }
  }
  try {
    verifyCommitLight(vals, trusted.chainId, commit, height);
  } catch (err) {
    throw new LightError(`invalid header: ${(err as Error).message}`);
  }
}

function verifyNewHeaderAndVals(trusted: TrustedHeader, header: ProtoMessage, vals: ProtoMessage, params: LightParams): void {
  const height = heightPart(header.height);
  const time = nanosOf(header.time);
  if (fieldText(header.chain_id) !== trusted.chainId) {
    throw new Error(`untrustedHeader.ValidateBasic failed: header belongs to another chain "${fieldText(header.chain_id)}", not "${trusted.chainId}"`);
  }
  if (height <= trusted.height) throw new Error(`expected new header height ${height} to be greater than one of old header ${trusted.height}`);
  if (!(time > trusted.timeNanos)) {
    throw new Error(`expected new header time ${unixNanosText(time)} to be after old header time ${unixNanosText(trusted.timeNanos)}`);
  }
  if (!(time < params.nowNanos + params.maxClockDriftNanos)) {
    throw new Error(
      `new header has a time from the future ${unixNanosText(time)} (now: ${unixNanosText(params.nowNanos)}; max clock drift: ${goDuration(params.maxClockDriftNanos)})`,
    );
  }
  const supplied = validatorSetHash(vals);
  if (!equal(bytesOf(header.validators_hash), supplied)) {
    throw new Error(
      `expected new header validators (${hex(bytesOf(header.validators_hash))}) to match those that were supplied (${hex(supplied)}) at height ${height}`,
    );
  }
}

class NotEnoughVotingPower extends LightError {}

const validatorsOf = (vals: ProtoMessage) => (vals.validators ?? []) as ProtoMessage[];
const totalPower = (vals: ProtoMessage) => validatorsOf(vals).reduce((sum, v) => sum + heightPart(v.voting_power), 0n);
const BLOCK_ID_FLAG_COMMIT = 2;

function checkSignature(validator: ProtoMessage, chainId: string, commit: ProtoMessage, index: number, signature: Uint8Array): void {
  const key = ed25519KeyOf(validator);
  let ok = false;
  try {
    ok = key !== undefined && ed25519.verify(signature, voteSignBytes(chainId, commit, index), key);
  } catch {
    ok = false;
  }
  if (!ok) throw new LightError(`wrong signature (#${index}): ${hex(signature)}`);
}

/** ValidatorSet.VerifyCommitLight: the commit is for this block and height, and more than 2/3 of this set signed it. */
export function verifyCommitLight(vals: ProtoMessage, chainId: string, commit: ProtoMessage, height: bigint): void {
  const validators = validatorsOf(vals);
  const signatures = (commit.signatures ?? []) as ProtoMessage[];
  if (validators.length !== signatures.length) {
    throw new LightError(`invalid commit -- wrong set size: ${validators.length} vs ${signatures.length}`);
  }
  if (heightPart(commit.height) !== height) throw new LightError(`invalid commit -- wrong height: ${height} vs ${heightPart(commit.height)}`);
  const needed = (totalPower(vals) * 2n) / 3n;
  let tallied = 0n;
  for (const [index, sig] of signatures.entries()) {
    if (Number(sig.block_id_flag ?? 0) !== BLOCK_ID_FLAG_COMMIT) continue;
    const validator = validators[index]!;
    checkSignature(validator, chainId, commit, index, bytesOf(sig.signature));
    tallied += heightPart(validator.voting_power);
    if (tallied > needed) return;
  }
  throw new NotEnoughVotingPower(`invalid commit -- insufficient voting power: got ${tallied}, needed more than ${needed}`);
}

/** ValidatorSet.VerifyCommitLightTrusting: more than trustLevel of the trusted set's power signed the new commit. */
export function verifyCommitLightTrusting(vals: ProtoMessage, chainId: string, commit: ProtoMessage, trustLevel: LightParams["trustLevel"]): void {
  if (trustLevel.denominator === 0n) throw new LightError("trustLevel has zero Denominator");
  const validators = validatorsOf(vals);
  const needed = (totalPower(vals) * trustLevel.numerator) / trustLevel.denominator;
  const seen = new Map<number, number>();
  let tallied = 0n;
  for (const [index, sig] of ((commit.signatures ?? []) as ProtoMessage[]).entries()) {
    if (Number(sig.block_id_flag ?? 0) !== BLOCK_ID_FLAG_COMMIT) continue;
    const address = bytesOf(sig.validator_address);
    const validatorIndex = validators.findIndex((v) => equal(bytesOf(v.address), address));
    if (validatorIndex < 0) continue;
    const first = seen.get(validatorIndex);
    if (first !== undefined) throw new LightError(`double vote from ${hex(address)} (${first} and ${index})`);
    seen.set(validatorIndex, index);
    const validator = validators[validatorIndex]!;
    checkSignature(validator, chainId, commit, index, bytesOf(sig.signature));
    tallied += heightPart(validator.voting_power);
    if (tallied > needed) return;
  }
  throw new NotEnoughVotingPower(`invalid commit -- insufficient voting power: got ${tallied}, needed more than ${needed}`);
}

/** SignedHeader.ValidateBasic's checks that tie the commit to the header (chain, height, block hash). */
export function checkCommitMatchesHeader(signedHeader: ProtoMessage, chainId: string): void {
  const header = (signedHeader.header ?? {}) as ProtoMessage;
  const commit = (signedHeader.commit ?? {}) as ProtoMessage;
  if (!signedHeader.commit) throw new LightError("missing commit");
  if (fieldText(header.chain_id) !== chainId) throw new LightError(`header belongs to another chain "${fieldText(header.chain_id)}", not "${chainId}"`);
  if (heightPart(header.height) <= 0n) throw new LightError("header: zero Height");
  if (heightPart(header.height) !== heightPart(commit.height)) {
    throw new LightError(`header and commit height mismatch: ${heightPart(header.height)} vs ${heightPart(commit.height)}`);
  }
  const hash = headerHash(header);
  const signed = bytesOf(((commit.block_id ?? {}) as ProtoMessage).hash);
  if (!equal(hash, signed)) throw new LightError(`commit signs block ${hex(signed)}, header is block ${hex(hash)}`);
}
