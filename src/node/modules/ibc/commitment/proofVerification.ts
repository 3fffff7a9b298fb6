import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { sdkError, TxError } from "../../../abci/txError.js";
import type { ExecContext } from "../../nodeModule.js";
import { getClientState, getConsensusState } from "../client/store.js";
import { clientError, commitmentError, tendermintClientError } from "../host/coreErrors.js";
import { formatHeight, heightGTE, heightPart, heightStruct, isZeroHeight, type Height } from "../host/heights.js";
import { clientMetadataKey, readUint64 } from "../host/hostPaths.js";
import { notReproduced } from "../host/notReproduced.js";

/**
 * What a proof proves: the counterparty's host path (without the "ibc" store prefix, which comes
 * from the connection's counterparty prefix) and the bytes stored there, or `absent` for a
 * non-membership proof. `delayed` marks the packet verifications, which first check the
 * connection's delay period against the consensus state's processed time.
 */
export interface ProofTarget {
  path: string;
  value?: Uint8Array;
  delayed?: boolean;
  /** The connection keeper's wrap when it is not "failed <what> verification for client (<id>)" (VerifyClientState's). */
  wrap?: string;
}

/**
 * ConnectionKeeper.VerifyX → 07-tendermint ClientState.VerifyX of SDK v0.41: the connection's
 * client, the proof height against the client's latest height, a frozen client, the proof's
 * decoding as a MerkleProof, the consensus state at the proof height, the packet delay period,
 * MerkleProof.validateVerificationArgs and then the ICS-23 verification itself against the
 * consensus state's root (merkleProof.ts). `what` names the verification ("connection state").
 */
export async function verifyProof(
  ctx: ExecContext,
  connection: ProtoMessage,
  proofHeight: Height,
  proof: Uint8Array,
  what: string,
  target: ProofTarget,
): Promise<void> {
  const ibc = ctx.storeOf("ibc");
  const clientId = fieldText(connection.client_id);
  const clientState = await getClientState(ibc, clientId, ctx);
  if (!clientState) throw clientError("clientNotFound", clientId);
  try {
    if (fieldText(clientState.type_url) !== "/ibc.lightclients.tendermint.v1.ClientState") throw notReproduced("verifying a 06-solomachine signature");
    const state = ctx.codec.type("ibc.lightclients.tendermint.v1.ClientState").decode(clientState.value as Uint8Array) as unknown as ProtoMessage;
    const latest = (state.latest_height ?? {}) as Height;
    if (!heightGTE(latest, proofHeight)) {
      throw sdkError("invalidHeight", `client state height < proof height (${heightStruct(latest)} < ${heightStruct(proofHeight)})`);
    }
    const frozen = (state.frozen_height ?? {}) as Height;
    if (!isZeroHeight(frozen) && heightGTE(proofHeight, frozen)) throw clientError("clientFrozen");
    let merkleProof: ProtoMessage;
    try {
      merkleProof = ctx.codec.type("ibc.core.commitment.v1.MerkleProof").decode(proof);
    } catch {
      throw commitmentError("invalidProof", "failed to unmarshal proof into commitment merkle proof");
    }
    const consensusAny = await getConsensusState(ibc, clientId, proofHeight, ctx);
    if (!consensusAny) throw clientError("consensusStateNotFound", `consensus state does not exist for height ${formatHeight(proofHeight)}`);
    const consensus = ctx.codec.type("ibc.lightclients.tendermint.v1.ConsensusState").decode(consensusAny.value as Uint8Array) as unknown as ProtoMessage;
    if (target.delayed) await checkDelayPeriod(ctx, clientId, proofHeight, heightPart(connection.delay_period));
    const keyPath = [prefixText(connection), target.path];
    await verifyAgainstRoot(ctx, state, consensus, merkleProof, keyPath, target.value);
  } catch (err) {
    if (err instanceof TxError) throw err.wrap(target.wrap ?? `failed ${what} verification for client (${clientId})`);
    throw err;
  }
}

/**
 * MerkleProof.VerifyMembership (or VerifyNonMembership when `value` is undefined) against a
 * consensus state's root, with validateVerificationArgs first: proofs, root, one spec per proof.
 */
export async function verifyAgainstRoot(
  ctx: ExecContext,
  clientState: ProtoMessage,
  consensus: ProtoMessage,
  merkleProof: ProtoMessage,
  keyPath: string[],
  value: Uint8Array | undefined,
): Promise<void> {
  const proofs = (merkleProof.proofs ?? []) as ProtoMessage[];
  const specs = (clientState.proof_specs ?? []) as ProtoMessage[];
  const root = ((consensus.root as ProtoMessage | undefined)?.hash as Uint8Array | undefined) ?? new Uint8Array();
  if (proofs.length === 0) throw commitmentError("invalidMerkleProof", "proof cannot be empty");
  if (root.length === 0) throw commitmentError("invalidMerkleProof", "root cannot be empty");
  if (specs.length !== proofs.length) {
    throw commitmentError("invalidMerkleProof", `length of specs: ${specs.length} not equal to length of proof: ${proofs.length}`);
  }
  // loaded at the first proof, not at start (@confio/ics23 brings its own protobufjs: most chains never prove); the library
  // comes through merkleProof.js because a bundled dynamic import of a CommonJS package gives only its default
  const { ics23, verifyMerkleMembership, verifyMerkleNonMembership } = await import("./merkleProof.js");
  // the node's codec decoded them; the library wants its own classes: re-encode and decode once
  const check = {
    specs: specs.map((spec) => ics23.ProofSpec.decode(ctx.codec.type("ics23.ProofSpec").encode(spec).finish())),
    proofs: proofs.map((p) => ics23.CommitmentProof.decode(ctx.codec.type("ics23.CommitmentProof").encode(p).finish())),
    root,
    keyPath,
  };
  if (value === undefined) verifyMerkleNonMembership(check);
  else verifyMerkleMembership(check, value);
}

/** The counterparty's store prefix (ApplyPrefix: an empty prefix is refused). */
function prefixText(connection: ProtoMessage): string {
  const prefix = (((connection.counterparty ?? {}) as ProtoMessage).prefix ?? {}) as ProtoMessage;
  const bytes = (prefix.key_prefix as Uint8Array | undefined) ?? new Uint8Array();
  if (bytes.length === 0) throw commitmentError("invalidPrefix", "prefix can't be empty");
  return Buffer.from(bytes).toString();
}

/** 07-tendermint verifyDelayPeriodPassed: the consensus state's processed time plus the delay must not be after this block's time. */
async function checkDelayPeriod(ctx: ExecContext, clientId: string, proofHeight: Height, delayNanos: bigint): Promise<void> {
  const stored = await ctx
    .storeOf("ibc")
    .get(clientMetadataKey(clientId, new TextEncoder().encode(`consensusStates/${formatHeight(proofHeight)}/processedTime`)));
  if (!stored) throw tendermintClientError("processedTimeNotFound", `processed time not found for height: ${formatHeight(proofHeight)}`);
  const validTime = readUint64(stored) + delayNanos;
  const now = BigInt(ctx.time.getTime()) * 1_000_000n;
  if (now < validTime) {
    throw tendermintClientError("delayPeriodNotPassed", `cannot verify packet until time: ${validTime}, received verification at time: ${now}`);
  }
}
