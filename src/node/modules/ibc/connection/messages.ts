import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { sdkError, TxError } from "../../../abci/txError.js";
import type { ExecContext, MsgRoute } from "../../nodeModule.js";
import { getClientState } from "../client/store.js";
import { getConnection } from "./store.js";
import { clientError, connectionError } from "../host/coreErrors.js";
import { formatHeight, heightGTE, selfHeight, type Height } from "../host/heights.js";
import { clientConnectionsKey, connectionKey, keyText, NEXT_CONNECTION_SEQUENCE_KEY, readUint64, uint64Value } from "../host/hostPaths.js";
import { unpack, validateClientState } from "../client/lightClientChecks.js";
import { checkConnectionIdFormat, checkHeight, checkId, checkProof, checkSigner, checkVersion, isConnectionIdFormat, signers } from "../host/msgChecks.js";
import { selfConsensusNotFound, selfConsensusState, validateSelfClient } from "../client/selfClient.js";
import { verifyProof } from "../commitment/proofVerification.js";
import { clientStateTarget, connectionStateTarget, consensusStateTarget } from "../commitment/proofTargets.js";
import { utf8 } from "../../../store/moduleStore.js";
import type { Codec } from "../../../../codec/codec.js";

const CONNECTION_STATES = ["STATE_UNINITIALIZED_UNSPECIFIED", "STATE_INIT", "STATE_TRYOPEN", "STATE_OPEN"];
const [INIT, TRYOPEN] = [1, 2];
export const CONNECTION_OPEN = 3;
/** DefaultIBCVersion, the only version the SDK's connection keeper supports. */
const DEFAULT_VERSION = { identifier: "1", features: ["ORDER_ORDERED", "ORDER_UNORDERED"] };

const moduleEvent = { type: "message", attributes: [{ key: "module", value: "ibc_connection" }] };
export const stateName = (state: unknown) => CONNECTION_STATES[Number(state ?? 0)] ?? String(state);

/** The ICS-03 connection Msg service of SDK v0.41 (03-connection types/msgs.go, keeper/handshake.go, core/keeper/msg_server.go). */
export const connectionMessages: Record<string, MsgRoute> = {
  "ibc.core.connection.v1.MsgConnectionOpenInit": {
    action: "connection_open_init",
    signers,
    validateBasic(msg, chain) {
      checkId("client", msg.client_id, "invalid client ID");
      const counterparty = (msg.counterparty ?? {}) as ProtoMessage;
      if (fieldText(counterparty.connection_id) !== "") throw connectionError("invalidCounterparty", "counterparty connection identifier must be empty");
      if (msg.version) checkVersion(msg.version as ProtoMessage, "basic validation of the provided version failed");
      checkSigner(msg, chain);
      checkCounterparty(counterparty);
    },
    async handler(msg, ctx) {
      const connectionId = await wrapped("connection handshake open init failed", () => connOpenInit(msg, ctx));
      emitHandshake(ctx, "connection_open_init", connectionId, msg.client_id, msg.counterparty as ProtoMessage);
      return {};
    },
  },
  "ibc.core.connection.v1.MsgConnectionOpenTry": {
    action: "connection_open_try",
    signers,
    validateBasic(msg, chain, codec) {
      if (fieldText(msg.previous_connection_id) !== "" && !isConnectionIdFormat(msg.previous_connection_id)) {
        throw connectionError("invalidConnectionIdentifier", "invalid previous connection ID");
      }
      checkId("client", msg.client_id, "invalid client ID");
      const counterparty = (msg.counterparty ?? {}) as ProtoMessage;
      checkId("connection", counterparty.connection_id, "invalid counterparty connection ID");
      checkCounterpartyClient(msg.client_state, codec);
      const versions = (msg.counterparty_versions ?? []) as ProtoMessage[];
      if (versions.length === 0) throw sdkError("invalidVersion", "empty counterparty versions");
      versions.forEach((version, i) => checkVersion(version, `basic validation failed on version with index ${i}`));
      checkProof(msg.proof_init, "cannot submit an empty proof init");
      checkProof(msg.proof_client, "cannot submit empty proof client");
      checkProof(msg.proof_consensus, "cannot submit an empty proof of consensus state");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkHeight(msg.consensus_height, "consensus height must be non-zero");
      checkSigner(msg, chain);
      checkCounterparty(counterparty);
    },
    async handler(msg, ctx) {
      const connectionId = await wrapped("connection handshake open try failed", () => connOpenTry(msg, ctx));
      emitHandshake(ctx, "connection_open_try", connectionId, msg.client_id, msg.counterparty as ProtoMessage);
      return {};
    },
  },
  "ibc.core.connection.v1.MsgConnectionOpenAck": {
    action: "connection_open_ack",
    signers,
    validateBasic(msg, chain, codec) {
      checkConnectionIdFormat(msg.connection_id);
      checkId("connection", msg.counterparty_connection_id, "invalid counterparty connection ID");
      checkVersion(msg.version as ProtoMessage | undefined);
      checkCounterpartyClient(msg.client_state, codec);
      checkProof(msg.proof_try, "cannot submit an empty proof try");
      checkProof(msg.proof_client, "cannot submit empty proof client");
      checkProof(msg.proof_consensus, "cannot submit an empty proof of consensus state");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkHeight(msg.consensus_height, "consensus height must be non-zero");
      checkSigner(msg, chain);
    },
    async handler(msg, ctx) {
      const connectionId = fieldText(msg.connection_id);
      const connection = await wrapped("connection handshake open ack failed", () => connOpenAck(msg, ctx));
      emitHandshake(ctx, "connection_open_ack", connectionId, connection.client_id, connection.counterparty as ProtoMessage);
      return {};
    },
  },
  "ibc.core.connection.v1.MsgConnectionOpenConfirm": {
    action: "connection_open_confirm",
    signers,
    validateBasic(msg, chain) {
      checkConnectionIdFormat(msg.connection_id);
      checkProof(msg.proof_ack, "cannot submit an empty proof ack");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkSigner(msg, chain);
    },
    async handler(msg, ctx) {
      const connectionId = fieldText(msg.connection_id);
      const connection = await wrapped("connection handshake open confirm failed", async () => {
        const connection = await existingConnection(ctx, connectionId);
        if (Number(connection.state ?? 0) !== TRYOPEN) {
          throw connectionError("invalidConnectionState", `connection state is not TRYOPEN (got ${stateName(connection.state)})`);
        }
        const expected = connectionStateTarget(ctx, connectionId, connection, CONNECTION_OPEN, COMMITMENT_PREFIX);
        await verifyProof(ctx, connection, msg.proof_height as Height, msg.proof_ack as Uint8Array, "connection state", expected);
        return setConnection(ctx, connectionId, { ...connection, state: CONNECTION_OPEN });
      });
      emitHandshake(ctx, "connection_open_confirm", connectionId, connection.client_id, connection.counterparty as ProtoMessage);
      return {};
    },
  },
};

/** Run a keeper step; its error gets the msg server's wrap ("connection handshake open init failed: …"). */
export async function wrapped<T>(context: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof TxError) throw err.wrap(context);
    throw err;
  }
}

/** This chain's store prefix, as the counterparty must name it ("ibc"). */
const COMMITMENT_PREFIX = utf8("ibc");

function setConnection(ctx: ExecContext, connectionId: string, end: ProtoMessage): ProtoMessage {
  ctx.storeOf("ibc").set(connectionKey(connectionId), ctx.codec.type("ibc.core.connection.v1.ConnectionEnd").encode(end).finish());
  return end;
}

/** Keeper.ConnOpenTry: the counterparty's INIT end, its client of this chain and that client's consensus state, proved; a TRYOPEN end. */
async function connOpenTry(msg: ProtoMessage, ctx: ExecContext): Promise<string> {
  const ibc = ctx.storeOf("ibc");
  const previousId = fieldText(msg.previous_connection_id);
  const previous = previousId !== "" ? await checkPreviousConnection(msg, previousId, ctx) : undefined;
  const connectionId = previous ? previousId : await nextConnectionId(ctx);
  const consensusHeight = msg.consensus_height as Height;
  checkConsensusHeight(consensusHeight, ctx);
  const clientState = unpack(msg.client_state, "ClientState", ctx.codec);
  await validateSelfClient(ctx, clientState);
  const selfConsensus = await selfConsensusState(ctx, consensusHeight);
  if (!selfConsensus) throw selfConsensusNotFound(consensusHeight);
  const counterparty = (msg.counterparty ?? {}) as ProtoMessage;
  const counterpartyVersions = (msg.counterparty_versions ?? []) as ProtoMessage[];
  const supported = ((previous?.versions ?? []) as ProtoMessage[]).length > 0 ? (previous!.versions as ProtoMessage[]) : [DEFAULT_VERSION];
  const version = pickVersion(supported, counterpartyVersions);
  const connection = { client_id: fieldText(msg.client_id), versions: [version], state: TRYOPEN, counterparty, delay_period: msg.delay_period };
  // what the counterparty stored on ConnOpenInit: an INIT end on its client, whose counterparty is this client (no connection id yet)
  const expectedInit = {
    client_id: fieldText(counterparty.client_id),
    versions: counterpartyVersions,
    state: INIT,
    counterparty: { client_id: fieldText(msg.client_id), connection_id: "", prefix: { key_prefix: COMMITMENT_PREFIX } },
    delay_period: msg.delay_period ?? 0,
  };
  await verifyHandshake(ctx, connection, msg, msg.proof_init, fieldText(counterparty.connection_id), expectedInit, selfConsensus);
  // as v0.41 does, also for a previous connection (whose id is then listed twice)
  await wrapped(`failed to add connection with ID ${connectionId} to client with ID ${fieldText(msg.client_id)}`, () =>
    addConnectionToClient(ctx, fieldText(msg.client_id), connectionId, ibc),
  );
  setConnection(ctx, connectionId, connection);
  return connectionId;
}

/** Keeper.ConnOpenAck: the counterparty's TRYOPEN end and its client of this chain, proved; the end becomes OPEN. */
async function connOpenAck(msg: ProtoMessage, ctx: ExecContext): Promise<ProtoMessage> {
  const consensusHeight = msg.consensus_height as Height;
  checkConsensusHeight(consensusHeight, ctx);
  const connectionId = fieldText(msg.connection_id);
  const connection = await existingConnection(ctx, connectionId);
  const state = Number(connection.state ?? 0);
  const version = msg.version as ProtoMessage;
  if (state !== INIT && state !== TRYOPEN) {
    throw connectionError("invalidConnectionState", `connection state is not INIT or TRYOPEN (got ${stateName(state)})`);
  }
  if (state === INIT && !isSupportedVersion(version)) {
    throw connectionError("invalidConnectionState", `connection state is in INIT but the provided version is not supported ${versionText(version)}`);
  }
  const versions = (connection.versions ?? []) as ProtoMessage[];
  if (state === TRYOPEN && (versions.length !== 1 || versionText(versions[0]) !== versionText(version))) {
    throw connectionError(
      "invalidConnectionState",
      `connection state is in TRYOPEN but the provided version (${versionText(version)}) is not set in the previous connection versions [${versions.map(versionText).join(" ")}]`,
    );
  }
  await validateSelfClient(ctx, unpack(msg.client_state, "ClientState", ctx.codec));
  const selfConsensus = await selfConsensusState(ctx, consensusHeight);
  if (!selfConsensus) throw clientError("selfConsensusStateNotFound");
  const counterparty = (connection.counterparty ?? {}) as ProtoMessage;
  const expectedTry = {
    client_id: fieldText(counterparty.client_id),
    versions: [version],
    state: TRYOPEN,
    counterparty: { client_id: fieldText(connection.client_id), connection_id: connectionId, prefix: { key_prefix: COMMITMENT_PREFIX } },
    delay_period: connection.delay_period ?? 0,
  };
  await verifyHandshake(ctx, connection, msg, msg.proof_try, fieldText(msg.counterparty_connection_id), expectedTry, selfConsensus);
  const opened = {
    ...connection,
    state: CONNECTION_OPEN,
    versions: [version],
    counterparty: { ...counterparty, connection_id: fieldText(msg.counterparty_connection_id) },
  };
  return setConnection(ctx, connectionId, opened);
}

/** Try and Ack's three verifications: the counterparty's connection end, its client state of this chain, its consensus state at consensus_height. */
async function verifyHandshake(
  ctx: ExecContext,
  connection: ProtoMessage,
  msg: ProtoMessage,
  connectionProof: unknown,
  counterpartyConnectionId: string,
  expectedEnd: ProtoMessage,
  selfConsensus: Uint8Array,
): Promise<void> {
  const proofHeight = msg.proof_height as Height;
  const endTarget = {
    path: keyText(connectionKey(counterpartyConnectionId)),
    value: ctx.codec.type("ibc.core.connection.v1.ConnectionEnd").encode(expectedEnd).finish(),
  };
  await verifyProof(ctx, connection, proofHeight, connectionProof as Uint8Array, "connection state", endTarget);
  const clientAny = msg.client_state as ProtoMessage;
  const clientBytes = ctx.codec
    .type("google.protobuf.Any")
    .encode({
      type_url: clientAny.type_url,
      value: ctx.codec
        .type(fieldText(clientAny.type_url).slice(1))
        .encode(unpack(clientAny, "ClientState", ctx.codec).value)
        .finish(),
    })
    .finish();
  await verifyProof(ctx, connection, proofHeight, msg.proof_client as Uint8Array, "client state", clientStateTarget(connection, clientBytes));
  const consensusTarget = consensusStateTarget(connection, msg.consensus_height as Height, selfConsensus);
  await verifyProof(ctx, connection, proofHeight, msg.proof_consensus as Uint8Array, "consensus state", consensusTarget);
}

/** PickVersion: the first supported version the counterparty also offers, with the features both have. */
function pickVersion(supported: ProtoMessage[], counterpartyVersions: ProtoMessage[]): ProtoMessage {
  for (const own of supported) {
    const theirs = counterpartyVersions.find((v) => fieldText(v.identifier) === fieldText(own.identifier));
    if (!theirs) continue;
    const features = ((own.features ?? []) as string[]).filter((f) => ((theirs.features ?? []) as string[]).includes(f));
    if (features.length === 0) continue;
    return { identifier: fieldText(own.identifier), features };
  }
  throw connectionError(
    "versionNegotiationFailed",
    `failed to find a matching counterparty version ([${counterpartyVersions.map(versionText).join(" ")}]) from the supported version list ([${supported.map(versionText).join(" ")}])`,
  );
}

/** A Version as Go's %s prints the proto message (compact text format). */
function versionText(version: ProtoMessage | undefined): string {
  if (!version) return "<nil>";
  return [`identifier:"${fieldText(version.identifier)}"`, ...((version.features ?? []) as string[]).map((f) => `features:"${f}"`)].join(" ");
}

/** Counterparty.ValidateBasic of a connection. */
function checkCounterparty(counterparty: ProtoMessage): void {
  if (fieldText(counterparty.connection_id) !== "") checkId("connection", counterparty.connection_id, "invalid counterparty connection ID");
  checkId("client", counterparty.client_id, "invalid counterparty client ID");
  const prefix = (counterparty.prefix as ProtoMessage | undefined)?.key_prefix as Uint8Array | undefined;
  if ((prefix?.length ?? 0) === 0) throw connectionError("invalidCounterparty", "counterparty prefix cannot be empty");
}

/** The counterparty's client state carried by Try and Ack: present, unpacked, valid. */
function checkCounterpartyClient(any: unknown, codec: Codec): void {
  if (!any) throw clientError("invalidClient", "counterparty client is nil");
  try {
    validateClientState(unpack(any, "ClientState", codec));
  } catch (err) {
    if (err instanceof TxError && err.codespace !== "sdk") throw err.wrap("counterparty client is invalid");
    throw err;
  }
}

/** IsSupportedVersion: a version of DefaultIBCVersion's identifier whose features it supports. */
function isSupportedVersion(version: ProtoMessage | undefined): boolean {
  if (!version || fieldText(version.identifier) !== DEFAULT_VERSION.identifier) return false;
  return ((version.features ?? []) as string[]).every((feature) => DEFAULT_VERSION.features.includes(feature));
}

/** Keeper.ConnOpenInit: a new INIT connection end on the client, listed under the client's connection paths. */
async function connOpenInit(msg: ProtoMessage, ctx: ExecContext): Promise<string> {
  const ibc = ctx.storeOf("ibc");
  let versions = [DEFAULT_VERSION];
  if (msg.version) {
    if (!isSupportedVersion(msg.version as ProtoMessage)) throw connectionError("invalidVersion", "version is not supported");
    versions = [msg.version as typeof DEFAULT_VERSION];
  }
  const connectionId = await nextConnectionId(ctx);
  const clientId = fieldText(msg.client_id);
  setConnection(ctx, connectionId, { client_id: clientId, versions, state: INIT, counterparty: msg.counterparty, delay_period: msg.delay_period });
  await addConnectionToClient(ctx, clientId, connectionId, ibc);
  return connectionId;
}

async function nextConnectionId(ctx: ExecContext): Promise<string> {
  const ibc = ctx.storeOf("ibc");
  const sequence = readUint64((await ibc.get(NEXT_CONNECTION_SEQUENCE_KEY)) ?? uint64Value(0n));
  ibc.set(NEXT_CONNECTION_SEQUENCE_KEY, uint64Value(sequence + 1n));
  return `connection-${sequence}`;
}

/** addConnectionToClient: the client must exist; the connection joins its connection paths. */
async function addConnectionToClient(ctx: ExecContext, clientId: string, connectionId: string, ibc: ReturnType<ExecContext["storeOf"]>): Promise<void> {
  if (!(await getClientState(ibc, clientId, ctx))) throw clientError("clientNotFound", clientId);
  const pathsType = ctx.codec.type("ibc.core.connection.v1.ClientPaths");
  const existing = await ibc.get(clientConnectionsKey(clientId));
  const paths = existing ? (((pathsType.decode(existing) as unknown as ProtoMessage).paths ?? []) as string[]) : [];
  ibc.set(clientConnectionsKey(clientId), pathsType.encode({ paths: [...paths, connectionId] }).finish());
}

async function checkPreviousConnection(msg: ProtoMessage, previousId: string, ctx: ExecContext): Promise<ProtoMessage> {
  const previous = await getConnection(ctx.storeOf("ibc"), previousId, ctx);
  if (!previous) throw connectionError("connectionNotFound", `previous connection does not exist for supplied previous connectionID ${previousId}`);
  const [had, given] = [(previous.counterparty ?? {}) as ProtoMessage, (msg.counterparty ?? {}) as ProtoMessage];
  const prefixOf = (c: ProtoMessage) => Buffer.from(((c.prefix as ProtoMessage | undefined)?.key_prefix as Uint8Array | undefined) ?? []);
  const same =
    fieldText(had.connection_id) === "" &&
    prefixOf(had).equals(prefixOf(given)) &&
    fieldText(previous.client_id) === fieldText(msg.client_id) &&
    fieldText(had.client_id) === fieldText(given.client_id) &&
    fieldText(previous.delay_period, "0") === fieldText(msg.delay_period, "0");
  if (!same) throw connectionError("invalidConnection", "connection fields mismatch previous connection fields");
  if (Number(previous.state ?? 0) !== INIT) {
    throw connectionError("invalidConnectionState", `previous connection state is in state ${stateName(previous.state)}, expected INIT`);
  }
  return previous;
}

/** A consensus height of this chain must be below its current height. */
function checkConsensusHeight(consensusHeight: Height, ctx: ExecContext): void {
  const self = selfHeight(ctx);
  if (heightGTE(consensusHeight, self)) {
    throw sdkError(
      "invalidHeight",
      `consensus height is greater than or equal to the current block height (${formatHeight(consensusHeight)} >= ${formatHeight(self)})`,
    );
  }
}

export async function existingConnection(ctx: ExecContext, connectionId: string): Promise<ProtoMessage> {
  const connection = await getConnection(ctx.storeOf("ibc"), connectionId, ctx);
  if (!connection) throw connectionError("connectionNotFound", connectionId);
  return connection;
}

function emitHandshake(ctx: ExecContext, type: string, connectionId: string, clientId: unknown, counterparty: ProtoMessage | undefined): void {
  ctx.emit({
    type,
    attributes: [
      { key: "connection_id", value: connectionId },
      { key: "client_id", value: fieldText(clientId) },
      { key: "counterparty_client_id", value: fieldText(counterparty?.client_id) },
      { key: "counterparty_connection_id", value: fieldText(counterparty?.connection_id) },
    ],
  });
  ctx.emit(moduleEvent);
}
