import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError, TxError } from "../../abci/txError.js";
import type { ExecContext } from "../nodeModule.js";
import { getClientState, getConsensusState } from "./clientStore.js";
import { clientError, commitmentError } from "./coreErrors.js";
import { formatHeight, heightGTE, heightStruct, isZeroHeight, type Height } from "./heights.js";
import { notReproduced } from "./notReproduced.js";

/**
 * ConnectionKeeper.VerifyX → 07-tendermint ClientState.VerifyX of SDK v0.41 up to the proof itself:
 * the connection's client, the proof height against the client's latest height, a frozen client,
 * the proof's decoding as a MerkleProof, the consensus state at the proof height, and the checks
 * MerkleProof.VerifyMembership makes before it hashes (empty proof, empty root, one proof per spec).
 * The ICS-23 hashing itself is not implemented (see notReproduced.ts): a proof that passes all of
 * that is refused as not supported. `what` names the verification ("connection state").
 */
export async function verifyProof(ctx: ExecContext, connection: ProtoMessage, proofHeight: Height, proof: Uint8Array, what: string): Promise<never> {
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
    const proofs = (merkleProof.proofs ?? []) as unknown[];
    const specs = (state.proof_specs ?? []) as unknown[];
    if (proofs.length === 0) throw commitmentError("invalidMerkleProof", "proof cannot be empty");
    if ((((consensus.root as ProtoMessage | undefined)?.hash as Uint8Array | undefined)?.length ?? 0) === 0) {
      throw commitmentError("invalidMerkleProof", "root cannot be empty");
    }
    if (specs.length !== proofs.length) {
      throw commitmentError("invalidMerkleProof", `length of specs: ${specs.length} not equal to length of proof: ${proofs.length}`);
    }
    throw notReproduced("hashing an ICS-23 membership proof against the consensus state's root");
  } catch (err) {
    if (err instanceof TxError) throw err.wrap(`failed ${what} verification for client (${clientId})`);
    throw err;
  }
}
