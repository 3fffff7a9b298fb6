import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import type { ExecContext, MsgRoute } from "../../nodeModule.js";
import { getClientState, readClientParams } from "./store.js";
import { clientError } from "../host/coreErrors.js";
import { formatHeight, heightOf, isZeroHeight, type Height } from "../host/heights.js";
import { clientMetadataKey, clientStateKey, consensusStateKey, NEXT_CLIENT_SEQUENCE_KEY, readUint64, uint64Value } from "../host/hostPaths.js";
import {
  clientTypeOfUrl,
  unpack,
  validateClientState,
  validateConsensusState,
  validateHeader,
  validateMisbehaviour,
  type Unpacked,
} from "./lightClientChecks.js";
import { latestHeightOf } from "./lightClients.js";
import { checkId, checkSigner, signers } from "../host/msgChecks.js";
import { notReproduced } from "../host/notReproduced.js";
import { checkConflictingHeaders, freezeForMisbehaviour, updateTendermintClient, validateHeaderContents } from "./headerUpdate.js";
import { wrapped } from "../connection/messages.js";
import { upgradeTendermintClient } from "./upgrade.js";
import { utf8 } from "../../../store/moduleStore.js";

const TENDERMINT_CLIENT = "/ibc.lightclients.tendermint.v1.ClientState";
const TENDERMINT_HEADER = "/ibc.lightclients.tendermint.v1.Header";
const moduleEvent = { type: "message", attributes: [{ key: "module", value: "ibc_client" }] };

/** The ICS-02 client Msg service of SDK v0.41 (x/ibc/core/02-client types/msgs.go, keeper/client.go, core/keeper/msg_server.go). */
export const clientMessages: Record<string, MsgRoute> = {
  "ibc.core.client.v1.MsgCreateClient": {
    action: "create_client",
    signers,
    validateBasic(msg, chain, codec) {
      checkSigner(msg, chain);
      const clientState = unpack(msg.client_state, "ClientState", codec);
      validateClientState(clientState);
      if (clientTypeOfUrl(clientState.typeUrl) === "09-localhost") {
        throw clientError("invalidClient", "localhost client can only be created on chain initialization");
      }
      validateConsensusState(unpack(msg.consensus_state, "ConsensusState", codec));
    },
    async handler(msg, ctx) {
      const clientState = unpack(msg.client_state, "ClientState", ctx.codec);
      const consensusState = unpack(msg.consensus_state, "ConsensusState", ctx.codec);
      const clientId = await createClient(ctx, clientState, consensusState);
      const latest = latestHeightOf(packed(clientState, ctx), ctx);
      ctx.emit({
        type: "create_client",
        attributes: [
          { key: "client_id", value: clientId },
          { key: "client_type", value: clientTypeOfUrl(clientState.typeUrl) },
          { key: "consensus_height", value: formatHeight(latest) },
        ],
      });
      ctx.emit(moduleEvent);
      return {};
    },
  },
  "ibc.core.client.v1.MsgUpdateClient": {
    action: "update_client",
    signers,
    validateBasic(msg, chain, codec) {
      checkSigner(msg, chain);
      const header = unpack(msg.header, "Header", codec);
      validateHeader(header);
      if (header.typeUrl === TENDERMINT_HEADER) validateHeaderContents(header.value);
      if (fieldText(msg.client_id) === "09-localhost") throw clientError("invalidClient", "localhost client is only updated on ABCI BeginBlock");
      checkId("client", msg.client_id);
    },
    async handler(msg, ctx) {
      const clientId = fieldText(msg.client_id);
      const clientState = await existingClient(ctx, clientId, `cannot update client with ID ${clientId}`);
      if (isFrozen(clientState, ctx)) throw clientError("clientFrozen", `cannot update client with ID ${clientId}`);
      const header = unpack(msg.header, "Header", ctx.codec);
      if (fieldText(clientState.type_url) !== TENDERMINT_CLIENT || header.typeUrl !== TENDERMINT_HEADER) {
        throw notReproduced(`cannot update client with ID ${clientId}: verifying a 06-solomachine header`);
      }
      const state = ctx.codec.type(TENDERMINT_CLIENT.slice(1)).decode(clientState.value as Uint8Array) as unknown as ProtoMessage;
      const consensusHeight = await wrapped(`cannot update client with ID ${clientId}`, () => updateTendermintClient(ctx, clientId, state, header.value));
      emitClientEvent(ctx, "update_client", clientId, consensusHeight);
      return {};
    },
  },
  "ibc.core.client.v1.MsgUpgradeClient": {
    action: "upgrade_client",
    signers,
    validateBasic(msg, chain, codec) {
      const clientType = clientTypeOfUrl(unpack(msg.client_state, "ClientState", codec).typeUrl);
      const consensusType = clientTypeOfUrl(unpack(msg.consensus_state, "ConsensusState", codec).typeUrl);
      if (clientType !== consensusType) {
        throw clientError("invalidUpgradeClient", `consensus state's client-type does not match client. expected: ${clientType}, got: ${consensusType}`);
      }
      if (((msg.proof_upgrade_client as Uint8Array | undefined)?.length ?? 0) === 0) {
        throw clientError("invalidUpgradeClient", "proof of upgrade client cannot be empty");
      }
      if (((msg.proof_upgrade_consensus_state as Uint8Array | undefined)?.length ?? 0) === 0) {
        throw clientError("invalidUpgradeClient", "proof of upgrade consensus state cannot be empty");
      }
      checkSigner(msg, chain);
      checkId("client", msg.client_id);
    },
    async handler(msg, ctx) {
      const clientId = fieldText(msg.client_id);
      const clientState = await existingClient(ctx, clientId, `cannot update client with ID ${clientId}`);
      if (isFrozen(clientState, ctx)) throw clientError("clientFrozen", `cannot update client with ID ${clientId}`);
      if (fieldText(clientState.type_url) !== TENDERMINT_CLIENT) {
        throw clientError("invalidUpgradeClient", `cannot upgrade client with ID ${clientId}: cannot upgrade solomachine client`);
      }
      const state = ctx.codec.type(TENDERMINT_CLIENT.slice(1)).decode(clientState.value as Uint8Array) as unknown as ProtoMessage;
      const upgraded = { client: unpack(msg.client_state, "ClientState", ctx.codec), consensus: unpack(msg.consensus_state, "ConsensusState", ctx.codec) };
      const proofs = { client: msg.proof_upgrade_client as Uint8Array, consensus: msg.proof_upgrade_consensus_state as Uint8Array };
      const height = await wrapped(`cannot upgrade client with ID ${clientId}`, () => upgradeTendermintClient(ctx, clientId, state, upgraded, proofs));
      emitClientEvent(ctx, "upgrade_client", clientId, height);
      return {};
    },
  },
  "ibc.core.client.v1.MsgSubmitMisbehaviour": {
    action: "submit_misbehaviour",
    signers,
    validateBasic(msg, chain, codec) {
      checkSigner(msg, chain);
      const misbehaviour = unpack(msg.misbehaviour, "Misbehaviour", codec);
      const misbehaviourClient = validateMisbehaviour(misbehaviour, validateHeaderContents);
      if (misbehaviour.typeUrl === "/ibc.lightclients.tendermint.v1.Misbehaviour") checkConflictingHeaders(misbehaviour.value);
      if (misbehaviourClient !== fieldText(msg.client_id)) {
        throw clientError(
          "invalidMisbehaviour",
          `misbehaviour client-id doesn't match client-id from message (${misbehaviourClient} ≠ ${fieldText(msg.client_id)})`,
        );
      }
      checkId("client", msg.client_id);
    },
    async handler(msg, ctx) {
      const clientId = fieldText(msg.client_id);
      const wrap = "failed to process misbehaviour for IBC client";
      const clientState = await existingClient(ctx, clientId, `${wrap}: cannot check misbehaviour for client with ID ${clientId}`);
      const misbehaviour = unpack(msg.misbehaviour, "Misbehaviour", ctx.codec);
      if (fieldText(clientState.type_url) !== TENDERMINT_CLIENT || misbehaviour.typeUrl !== "/ibc.lightclients.tendermint.v1.Misbehaviour") {
        throw notReproduced(`${wrap}: verifying a 06-solomachine misbehaviour`);
      }
      const state = ctx.codec.type(TENDERMINT_CLIENT.slice(1)).decode(clientState.value as Uint8Array) as unknown as ProtoMessage;
      const height = await wrapped(wrap, () => freezeForMisbehaviour(ctx, clientId, state, misbehaviour.value));
      emitClientEvent(ctx, "client_misbehaviour", clientId, height);
      return {};
    },
  },
};

/** Keeper.CreateClient: the allow list, the next identifier, the client state, Initialize and the first consensus state. */
async function createClient(ctx: ExecContext, clientState: Unpacked, consensusState: Unpacked): Promise<string> {
  const ibc = ctx.storeOf("ibc");
  const clientType = clientTypeOfUrl(clientState.typeUrl);
  const allowed = ((await readClientParams(ibc, ctx)).allowed_clients ?? []) as string[];
  if (!allowed.includes(clientType)) throw clientError("invalidClientType", `client state type ${clientType} is not registered in the allowlist`);
  const sequence = readUint64((await ibc.get(NEXT_CLIENT_SEQUENCE_KEY)) ?? uint64Value(0n));
  const clientId = `${clientType}-${sequence}`;
  ibc.set(NEXT_CLIENT_SEQUENCE_KEY, uint64Value(sequence + 1n));
  const anyType = ctx.codec.type("google.protobuf.Any");
  const packedState = packed(clientState, ctx);
  ibc.set(clientStateKey(clientId), anyType.encode(packedState).finish());
  const latest = latestHeightOf(packedState, ctx);
  // Initialize: both light clients take only their own consensus state type
  if (clientTypeOfUrl(consensusState.typeUrl) !== clientType) {
    throw clientError("invalidConsensus", "invalid initial consensus state. expected type: *types.ConsensusState, got: *types.ConsensusState");
  }
  if (clientType === "07-tendermint") {
    const blockNanos = BigInt(ctx.time.getTime()) * 1_000_000n;
    ibc.set(clientMetadataKey(clientId, utf8(`consensusStates/${formatHeight(latest)}/processedTime`)), uint64Value(blockNanos));
  }
  ibc.set(consensusStateKey(clientId, latest), anyType.encode(packed(consensusState, ctx)).finish());
  return clientId;
}

/** An unpacked state packed again as the keeper marshals it (MarshalInterface: the Any of the re-encoded value). */
function packed(state: Unpacked, ctx: ExecContext): ProtoMessage {
  return { type_url: state.typeUrl, value: ctx.codec.type(state.typeUrl.slice(1)).encode(state.value).finish() };
}

async function existingClient(ctx: ExecContext, clientId: string, notFoundText: string): Promise<ProtoMessage> {
  const clientState = await getClientState(ctx.storeOf("ibc"), clientId, ctx);
  if (!clientState) throw clientError("clientNotFound", notFoundText);
  return clientState;
}

/** ClientState.IsFrozen: a non-zero frozen height (07-tendermint) or frozen sequence (06-solomachine). */
function isFrozen(clientState: ProtoMessage, ctx: ExecContext): boolean {
  const state = ctx.codec.type(fieldText(clientState.type_url).slice(1)).decode(clientState.value as Uint8Array) as unknown as ProtoMessage;
  if (state.frozen_height) return !isZeroHeight(state.frozen_height);
  return !isZeroHeight(heightOf(0n, BigInt(fieldText(state.frozen_sequence, "0"))));
}

/** The client keeper's events of an update or a misbehaviour (07-tendermint), then message.module. */
function emitClientEvent(ctx: ExecContext, type: string, clientId: string, height: Height): void {
  ctx.emit({
    type,
    attributes: [
      { key: "client_id", value: clientId },
      { key: "client_type", value: "07-tendermint" },
      { key: "consensus_height", value: formatHeight(height) },
    ],
  });
  ctx.emit(moduleEvent);
}
