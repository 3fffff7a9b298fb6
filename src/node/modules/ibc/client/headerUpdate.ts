import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import type { ExecContext } from "../../nodeModule.js";
import { plainError } from "../../shared/errorTable.js";
import { getConsensusState } from "./store.js";
import { clientError, tendermintClientError } from "../host/coreErrors.js";
import { formatHeight, heightGTE, heightOf, heightPart, heightStruct, isZeroHeight, revisionOfChainId, type Height } from "../host/heights.js";
import { clientMetadataKey, clientStateKey, consensusStateKey, uint64Value } from "../host/hostPaths.js";
import { checkCommitMatchesHeader, LightError, lightVerify, nanosOf, verifyCommitLight, verifyCommitLightTrusting } from "./lightVerifier.js";
import { goDuration } from "../host/goText.js";
import { TxError } from "../../../abci/txError.js";
import { validatorSetHash } from "./tendermintHashes.js";
import { utf8 } from "../../../store/moduleStore.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();
const bytesOf = (value: unknown) => (value as Uint8Array | undefined) ?? new Uint8Array();
const headerOf = (h: ProtoMessage) => ((h.signed_header as ProtoMessage).header ?? {}) as ProtoMessage;

/** Header.GetHeight of 07-tendermint: the revision of the header's chain id, its block height. */
function tendermintHeaderHeight(h: ProtoMessage): Height {
  const header = headerOf(h);
  return heightOf(revisionOfChainId(fieldText(header.chain_id)), heightPart(header.height));
}

/**
 * The part of 07-tendermint Header.ValidateBasic after its nil checks: the signed header's own
 * consistency (commit for this chain, height and block hash), the trusted height below the
 * header's, and the validator set against the header's validators hash.
 */
export function validateHeaderContents(h: ProtoMessage): void {
  try {
    checkCommitMatchesHeader(h.signed_header as ProtoMessage, fieldText(headerOf(h).chain_id));
  } catch (err) {
    if (err instanceof LightError) throw plainError(`header failed basic validation: ${err.message}`);
    throw err;
  }
  const height = tendermintHeaderHeight(h);
  const trusted = (h.trusted_height ?? {}) as Height;
  if (heightGTE(trusted, height)) {
    throw tendermintClientError("invalidHeaderHeight", `TrustedHeight ${heightStruct(trusted)} must be less than header height ${heightStruct(height)}`);
  }
  if (!h.validator_set) throw clientError("invalidHeader", "validator set is nil");
  if (!Buffer.from(bytesOf(headerOf(h).validators_hash)).equals(Buffer.from(validatorSetHash(h.validator_set as ProtoMessage)))) {
    throw clientError("invalidHeader", "validator set does not match hash");
  }
}

/**
 * The end of 07-tendermint Misbehaviour.ValidateBasic, after each header's own checks: one height,
 * two different block hashes, and each commit signed by +2/3 of its header's validator set.
 */
export function checkConflictingHeaders(m: ProtoMessage): void {
  const [h1, h2] = [m.header_1, m.header_2] as ProtoMessage[];
  const [height1, height2] = [tendermintHeaderHeight(h1!), tendermintHeaderHeight(h2!)];
  if (formatHeight(height1) !== formatHeight(height2)) {
    throw clientError("invalidMisbehaviour", `headers in misbehaviour are on different heights (${heightStruct(height1)} ≠ ${heightStruct(height2)})`);
  }
  const commitOf = (h: ProtoMessage) => ((h.signed_header as ProtoMessage).commit ?? {}) as ProtoMessage;
  const blockHash = (h: ProtoMessage) => Buffer.from(bytesOf(((commitOf(h).block_id ?? {}) as ProtoMessage).hash));
  if (blockHash(h1!).equals(blockHash(h2!))) throw clientError("invalidMisbehaviour", "headers block hashes are equal");
  for (const h of [h1!, h2!]) {
    try {
      verifyCommitLight((h.validator_set ?? {}) as ProtoMessage, fieldText(headerOf(h).chain_id), commitOf(h), heightPart(commitOf(h).height));
    } catch (err) {
      if (err instanceof LightError) throw clientError("invalidMisbehaviour", "validator set did not commit to header");
      throw err;
    }
  }
}

/**
 * 07-tendermint ClientState.CheckHeaderAndUpdateState of SDK v0.41 (update.go) and the keeper's
 * writes after it: the trusted consensus state, the trusted validators against its next
 * validators hash, revision and height order, light.Verify, then the new latest height, the
 * consensus state at the header's height and its processed time. Returns the consensus height.
 */
export async function updateTendermintClient(ctx: ExecContext, clientId: string, clientState: ProtoMessage, h: ProtoMessage): Promise<Height> {
  const ibc = ctx.storeOf("ibc");
  const trustedHeight = (h.trusted_height ?? {}) as Height;
  const consensus = await trustedConsensusState(
    ctx,
    clientId,
    h,
    `could not get consensus state from clientstore at TrustedHeight: ${formatHeight(trustedHeight)}`,
  );
  checkTrustedValidators(h, consensus);
  const trustedVals = (h.trusted_validators ?? {}) as ProtoMessage;
  const nextValidatorsHash = bytesOf(consensus.next_validators_hash);
  const height = tendermintHeaderHeight(h);
  if (heightPart(height.revision_number) !== heightPart(trustedHeight.revision_number)) {
    throw tendermintClientError(
      "invalidHeaderHeight",
      `header height revision ${heightPart(height.revision_number)} does not match trusted header revision ${heightPart(trustedHeight.revision_number)}`,
    );
  }
  if (heightGTE(trustedHeight, height)) {
    throw clientError("invalidHeader", `header height ≤ consensus state height (${formatHeight(height)} ≤ ${formatHeight(trustedHeight)})`);
  }
  const chainId = fieldText(clientState.chain_id);
  const trustLevel = (clientState.trust_level ?? {}) as ProtoMessage;
  try {
    lightVerify(
      {
        // a chain id in revision format takes the header's revision (SetRevisionNumber)
        chainId: chainIdAtRevision(chainId, height),
        height: heightPart(trustedHeight.revision_height),
        timeNanos: nanosOf(consensus.timestamp),
        nextValidatorsHash,
      },
      trustedVals,
      h.signed_header as ProtoMessage,
      (h.validator_set ?? {}) as ProtoMessage,
      {
        trustingPeriodNanos: nanosOf(clientState.trusting_period),
        nowNanos: BigInt(ctx.time.getTime()) * 1_000_000n,
        maxClockDriftNanos: nanosOf(clientState.max_clock_drift),
        trustLevel: { numerator: heightPart(trustLevel.numerator), denominator: heightPart(trustLevel.denominator) },
      },
    );
  } catch (err) {
    if (err instanceof LightError) throw plainError(`failed to verify header: ${err.message}`);
    throw err;
  }
  const header = headerOf(h);
  const anyType = ctx.codec.type("google.protobuf.Any");
  const stateType = "ibc.lightclients.tendermint.v1.ClientState";
  if (!heightGTE(clientState.latest_height as Height, height)) {
    const updated = { ...clientState, latest_height: height };
    ibc.set(clientStateKey(clientId), anyType.encode({ type_url: `/${stateType}`, value: ctx.codec.type(stateType).encode(updated).finish() }).finish());
  }
  const newConsensus = { timestamp: header.time, root: { hash: bytesOf(header.app_hash) }, next_validators_hash: bytesOf(header.next_validators_hash) };
  const consensusType = "ibc.lightclients.tendermint.v1.ConsensusState";
  ibc.set(
    consensusStateKey(clientId, height),
    anyType.encode({ type_url: `/${consensusType}`, value: ctx.codec.type(consensusType).encode(newConsensus).finish() }).finish(),
  );
  const blockNanos = BigInt(ctx.time.getTime()) * 1_000_000n;
  ibc.set(clientMetadataKey(clientId, utf8(`consensusStates/${formatHeight(height)}/processedTime`)), uint64Value(blockNanos));
  return height;
}

/** The consensus state at the header's trusted height. */
async function trustedConsensusState(ctx: ExecContext, clientId: string, h: ProtoMessage, notFoundWrap: string): Promise<ProtoMessage> {
  const trustedHeight = (h.trusted_height ?? {}) as Height;
  const trustedAny = await getConsensusState(ctx.storeOf("ibc"), clientId, trustedHeight, ctx);
  if (!trustedAny) {
    throw clientError("consensusStateNotFound", `consensus state does not exist for height ${formatHeight(trustedHeight)}`).wrap(notFoundWrap);
  }
  return ctx.codec.type("ibc.lightclients.tendermint.v1.ConsensusState").decode(trustedAny.value as Uint8Array);
}

/** checkTrustedHeader: the header's trusted validators are the consensus state's next validators. */
function checkTrustedValidators(h: ProtoMessage, consensus: ProtoMessage): void {
  const trustedVals = (h.trusted_validators ?? {}) as ProtoMessage;
  const trustedValsHash = validatorSetHash(trustedVals);
  const nextValidatorsHash = bytesOf(consensus.next_validators_hash);
  if (!Buffer.from(trustedValsHash).equals(Buffer.from(nextValidatorsHash))) {
    // Go prints the trusted ValidatorSet itself with %s; this node names its size instead
    throw tendermintClientError(
      "invalidValidatorSet",
      `trusted validators of ${((trustedVals.validators ?? []) as unknown[]).length} validators, does not hash to latest trusted validators. Expected: ${hex(nextValidatorsHash)}, got: ${hex(trustedValsHash)}`,
    );
  }
}

/** SetRevisionNumber: a chain id in revision format takes the header's revision. */
function chainIdAtRevision(chainId: string, height: Height): string {
  return revisionOfChainId(chainId) > 0n ? `${chainId.slice(0, chainId.lastIndexOf("-"))}-${heightPart(height.revision_number)}` : chainId;
}

/**
 * 07-tendermint CheckMisbehaviourAndUpdateState of SDK v0.41: each header's trusted consensus
 * state and trusted validators, the trusting period from that consensus state's time, and a
 * trust level of the trusted validators having signed the header's commit; then the client is
 * frozen at the misbehaviour's height (Header1's). Returns that height.
 */
export async function freezeForMisbehaviour(ctx: ExecContext, clientId: string, clientState: ProtoMessage, m: ProtoMessage): Promise<Height> {
  const height = tendermintHeaderHeight(m.header_1 as ProtoMessage);
  const frozen = (clientState.frozen_height ?? {}) as Height;
  if (!isZeroHeight(frozen) && heightGTE(height, frozen)) {
    throw clientError(
      "invalidMisbehaviour",
      `client is already frozen at earlier height ${formatHeight(frozen)} than misbehaviour height ${formatHeight(height)}`,
    );
  }
  const headers = [m.header_1, m.header_2] as ProtoMessage[];
  const consensusStates: ProtoMessage[] = [];
  for (const [i, h] of headers.entries()) {
    const trusted = formatHeight(h.trusted_height ?? {});
    consensusStates.push(
      await trustedConsensusState(ctx, clientId, h, `could not get trusted consensus state from clientStore for Header${i + 1} at TrustedHeight: ${trusted}`),
    );
  }
  const nowNanos = BigInt(ctx.time.getTime()) * 1_000_000n;
  const trustingPeriod = nanosOf(clientState.trusting_period);
  const trustLevel = (clientState.trust_level ?? {}) as ProtoMessage;
  for (const [i, h] of headers.entries()) {
    try {
      checkTrustedValidators(h, consensusStates[i]!);
      const age = nowNanos - nanosOf(consensusStates[i]!.timestamp);
      if (age >= trustingPeriod) {
        throw tendermintClientError(
          "trustingPeriodExpired",
          `current timestamp minus the latest consensus state timestamp is greater than or equal to the trusting period (${goDuration(age)} >= ${goDuration(trustingPeriod)})`,
        );
      }
      try {
        verifyCommitLightTrusting(
          (h.trusted_validators ?? {}) as ProtoMessage,
          chainIdAtRevision(fieldText(clientState.chain_id), tendermintHeaderHeight(h)),
          ((h.signed_header ?? {}) as ProtoMessage).commit as ProtoMessage,
          { numerator: heightPart(trustLevel.numerator), denominator: heightPart(trustLevel.denominator) },
        );
      } catch (err) {
        if (!(err instanceof LightError)) throw err;
        throw tendermintClientError("invalidValidatorSet", `validator set in header has too much change from trusted validator set: ${err.message}`);
      }
    } catch (err) {
      if (err instanceof TxError) throw err.wrap(`verifying Header${i + 1} in Misbehaviour failed`);
      throw err;
    }
  }
  const stateType = "ibc.lightclients.tendermint.v1.ClientState";
  const updated = { ...clientState, frozen_height: height };
  const anyType = ctx.codec.type("google.protobuf.Any");
  ctx
    .storeOf("ibc")
    .set(clientStateKey(clientId), anyType.encode({ type_url: `/${stateType}`, value: ctx.codec.type(stateType).encode(updated).finish() }).finish());
  return height;
}
