import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { sdkError, TxError } from "../../../abci/txError.js";
import type { ExecContext } from "../../nodeModule.js";
import { getConsensusState } from "./store.js";
import { clientError, commitmentError } from "../host/coreErrors.js";
import { formatHeight, heightGTE, heightPart, type Height } from "../host/heights.js";
import { clientStateKey, consensusStateKey } from "../host/hostPaths.js";
import { validateClientState, type Unpacked } from "./lightClientChecks.js";
import { nanosOf } from "./lightVerifier.js";
import { verifyAgainstRoot } from "../commitment/proofVerification.js";

const TM = "ibc.lightclients.tendermint.v1";

/**
 * 07-tendermint ClientState.VerifyUpgradeAndUpdateState (SDK v0.41 upgrade.go), then the client
 * keeper's writes: the upgraded client and consensus state, committed by the old chain's upgrade
 * store under the client's upgrade path at its latest height, are proved against the consensus
 * state at that height; the new client keeps this client's own parameters (trust level, trusting
 * period, clock drift, allow flags) and its consensus state has an empty root. Returns the new
 * latest height.
 */
export async function upgradeTendermintClient(
  ctx: ExecContext,
  clientId: string,
  clientState: ProtoMessage,
  upgraded: { client: Unpacked; consensus: Unpacked },
  proofs: { client: Uint8Array; consensus: Uint8Array },
): Promise<Height> {
  const ibc = ctx.storeOf("ibc");
  const upgradePath = (clientState.upgrade_path ?? []) as string[];
  if (upgradePath.length === 0) throw clientError("invalidUpgradeClient", "cannot upgrade client, no upgrade path set");
  const lastHeight = (clientState.latest_height ?? {}) as Height;
  const newHeight = (upgraded.client.value.latest_height ?? {}) as Height;
  if (heightGTE(lastHeight, newHeight)) {
    throw sdkError(
      "invalidHeight",
      `upgraded client height ${formatHeight(newHeight)} must be at greater than current client height ${formatHeight(lastHeight)}`,
    );
  }
  if (upgraded.client.typeUrl !== `/${TM}.ClientState`) {
    throw clientError("invalidClientType", "upgraded client must be Tendermint client. expected: *types.ClientState got: *types.ClientState");
  }
  if (upgraded.consensus.typeUrl !== `/${TM}.ConsensusState`) {
    throw clientError(
      "invalidConsensus",
      "upgraded consensus state must be Tendermint consensus state. expected *types.ConsensusState, got: *types.ConsensusState",
    );
  }
  const merkleProofType = ctx.codec.type("ibc.core.commitment.v1.MerkleProof");
  const decodeProof = (bytes: Uint8Array, what: string): ProtoMessage => {
    try {
      return merkleProofType.decode(bytes);
    } catch (err) {
      throw commitmentError("invalidProof", `could not unmarshal ${what} merkle proof: ${(err as Error).message}`);
    }
  };
  const clientProof = decodeProof(proofs.client, "client");
  const consensusProof = decodeProof(proofs.consensus, "consensus state");
  const consensusAny = await getConsensusState(ibc, clientId, lastHeight, ctx);
  if (!consensusAny) throw clientError("consensusStateNotFound", "could not retrieve consensus state for lastHeight");
  const consensus = ctx.codec.type(`${TM}.ConsensusState`).decode(consensusAny.value as Uint8Array) as unknown as ProtoMessage;
  const nowNanos = BigInt(ctx.time.getTime()) * 1_000_000n;
  if (nanosOf(consensus.timestamp) + nanosOf(clientState.trusting_period) <= nowNanos) {
    throw clientError("invalidClient", "cannot upgrade an expired client");
  }
  const anyBytes = (state: Unpacked) =>
    ctx.codec
      .type("google.protobuf.Any")
      .encode({ type_url: state.typeUrl, value: ctx.codec.type(state.typeUrl.slice(1)).encode(state.value).finish() })
      .finish();
  const pathTo = (leaf: string) => [...upgradePath.slice(0, -1), `${upgradePath[upgradePath.length - 1]}/${heightPart(lastHeight.revision_height)}/${leaf}`];
  const verify = async (proof: ProtoMessage, leaf: string, value: Uint8Array, what: string) => {
    const keyPath = pathTo(leaf);
    try {
      await verifyAgainstRoot(ctx, clientState, consensus, proof, keyPath, value);
    } catch (err) {
      if (err instanceof TxError) throw err.wrap(`${what} proof failed. Path: /${keyPath.join("/")}`);
      throw err;
    }
  };
  await verify(clientProof, "upgradedClient", anyBytes(upgraded.client), "client state");
  await verify(consensusProof, "upgradedConsState", anyBytes(upgraded.consensus), "consensus state");

  const next = upgraded.client.value;
  const newClient = {
    chain_id: next.chain_id,
    trust_level: clientState.trust_level,
    trusting_period: clientState.trusting_period,
    unbonding_period: next.unbonding_period,
    max_clock_drift: clientState.max_clock_drift,
    frozen_height: { revision_number: 0, revision_height: 0 },
    latest_height: next.latest_height,
    proof_specs: next.proof_specs,
    upgrade_path: next.upgrade_path,
    allow_update_after_expiry: clientState.allow_update_after_expiry,
    allow_update_after_misbehaviour: clientState.allow_update_after_misbehaviour,
  };
  try {
    validateClientState({ typeUrl: `/${TM}.ClientState`, value: newClient });
  } catch (err) {
    if (err instanceof TxError) throw err.wrap("updated client state failed basic validation");
    throw err;
  }
  const nextConsensus = upgraded.consensus.value;
  const newConsensus = { timestamp: nextConsensus.timestamp, root: {}, next_validators_hash: nextConsensus.next_validators_hash };
  ibc.set(clientStateKey(clientId), anyBytes({ typeUrl: `/${TM}.ClientState`, value: newClient }));
  ibc.set(consensusStateKey(clientId, newHeight), anyBytes({ typeUrl: `/${TM}.ConsensusState`, value: newConsensus }));
  return newHeight;
}
