import { expect } from "chai";
import type { EncodeObject } from "@cosmjs/proto-signing";
import { Any as AnyType, type Any } from "cosmjs-types/google/protobuf/any";
import { ClientState, ConsensusState } from "cosmjs-types/ibc/lightclients/tendermint/v1/tendermint";
import { ConnectionEnd, State as ConnectionState, type Version } from "cosmjs-types/ibc/core/connection/v1/connection";
import { Channel, Order, State as ChannelState } from "cosmjs-types/ibc/core/channel/v1/channel";
import { SDK_PROOF_SPECS, type IbcTestChain } from "./ibcTestChain.js";
import { ibcStoreTree } from "./ibcProofTree.js";

/**
 * The ICS-03 and ICS-04 handshakes against a counterparty built in the test: its "ibc" store at two
 * heights (2-50 given at MsgCreateClient, 2-51 by a signed MsgUpdateClient) holds the ends, its
 * client of this chain and that client's consensus state of this chain (read from the node's
 * historical info, as GetSelfConsensusState reads it). The counterparty's ids: client
 * 07-tendermint-7, connections 7 (ConnOpenTry side) and 8 (ConnOpenAck side), channels 7 and 8.
 */
interface HandshakeChain {
  io: IbcTestChain["io"];
  signer: string;
  createClient(consensusTime: bigint, root: Uint8Array): Promise<string>;
  /** the consensus time of the client it creates: earlier than the time of the headers `update` signs, whenever the test runs */
  consensusTime: bigint;
  update(clientId: string, appHash: Uint8Array): EncodeObject;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const PEER_CLIENT = "07-tendermint-7";
const VERSION: Version = { identifier: "1", features: ["ORDER_ORDERED", "ORDER_UNORDERED"] };
const anyBytes = (any: Any) => AnyType.encode(any).finish();
const connectionEnd = (state: ConnectionState, counterpartyClient: string, counterpartyConnection: string, versions: Version[]) =>
  ConnectionEnd.encode({
    clientId: PEER_CLIENT,
    versions,
    state,
    counterparty: { clientId: counterpartyClient, connectionId: counterpartyConnection, prefix: { keyPrefix: utf8("ibc") } },
    delayPeriod: 0n,
  }).finish();
const channelEnd = (state: ChannelState, counterpartyChannel: string) =>
  Channel.encode({
    state,
    ordering: Order.ORDER_UNORDERED,
    counterparty: { portId: "transfer", channelId: counterpartyChannel },
    connectionHops: ["connection-8"],
    version: "ics20-1",
  }).finish();
/** RFC 3339 with up to nine fraction digits → a Timestamp. */
function timestampOf(text: string) {
  const [whole, fraction = ""] = text.replace(/Z$/, "").split(".");
  return { seconds: BigInt(Date.parse(`${whole}Z`) / 1000), nanos: Number(fraction.padEnd(9, "0")) };
}

export async function handshakes(chain: HandshakeChain): Promise<void> {
  const { io, signer } = chain;
  const msg = (typeUrl: string, value: Record<string, unknown>): EncodeObject => ({ typeUrl, value: { signer, ...value } });
  const ok = async (message: EncodeObject) => {
    const answer = await io.outcome(message);
    expect(answer.code, answer.log).to.equal(0);
    return answer.events;
  };
  // a block with a transaction, so that the historical info read below carries an app hash
  await ok({ typeUrl: "/cosmos.bank.v1beta1.MsgSend", value: { fromAddress: signer, toAddress: signer, amount: [{ denom: "uhub", amount: "1" }] } });
  // the ids this chain will give (sequential, never reused)
  const count = async (route: string, field: string) => ((await io.rest(route))[field] as unknown[]).length;
  const clientId = `07-tendermint-${await count("/ibc/core/client/v1beta1/client_states", "client_states")}`;
  const connections = await count("/ibc/core/connection/v1beta1/connections", "connections");
  const [ackSide, trySide] = [`connection-${connections}`, `connection-${connections + 1}`];
  const channels = await count("/ibc/core/channel/v1beta1/channels", "channels");
  const [ackChannel, tryChannel] = [`channel-${channels}`, `channel-${channels + 1}`];

  // this chain as the counterparty's client sees it, at a height already committed
  const latest = await io.rest("/cosmos/base/tendermint/v1beta1/blocks/latest");
  const chainId = String(latest.block.header.chain_id);
  const revision = BigInt(chainId.slice(chainId.lastIndexOf("-") + 1));
  const selfHeight = BigInt(latest.block.header.height);
  const hist = (await io.rest(`/cosmos/staking/v1beta1/historical_info/${selfHeight}`)).hist.header;
  expect(hist.app_hash).to.have.length(44); // 32 bytes in base64
  const selfConsensus = anyBytes({
    typeUrl: "/ibc.lightclients.tendermint.v1.ConsensusState",
    value: ConsensusState.encode({
      timestamp: timestampOf(hist.time),
      root: { hash: Buffer.from(hist.app_hash ?? "", "base64") },
      nextValidatorsHash: Buffer.from(hist.next_validators_hash ?? "", "base64"),
    }).finish(),
  });
  const unbonding = BigInt(String((await io.rest("/cosmos/staking/v1beta1/params")).params.unbonding_time).replace(/s$/, ""));
  const selfClient: Any = {
    typeUrl: "/ibc.lightclients.tendermint.v1.ClientState",
    value: ClientState.encode(
      ClientState.fromPartial({
        chainId,
        trustLevel: { numerator: 1n, denominator: 3n },
        trustingPeriod: { seconds: unbonding / 2n, nanos: 0 },
        unbondingPeriod: { seconds: unbonding, nanos: 0 },
        maxClockDrift: { seconds: 10n, nanos: 0 },
        frozenHeight: { revisionNumber: 0n, revisionHeight: 0n },
        latestHeight: { revisionNumber: revision, revisionHeight: selfHeight },
        proofSpecs: SDK_PROOF_SPECS,
        upgradePath: ["upgrade", "upgradedIBCState"],
      }),
    ).finish(),
  };
  const consensusKey = `clients/${PEER_CLIENT}/consensusStates/${revision}-${selfHeight}`;
  const at50 = ibcStoreTree({
    "connections/connection-7": connectionEnd(ConnectionState.STATE_INIT, clientId, "", [VERSION]),
    "connections/connection-8": connectionEnd(ConnectionState.STATE_TRYOPEN, clientId, ackSide, [VERSION]),
    [`clients/${PEER_CLIENT}/clientState`]: anyBytes(selfClient),
    [consensusKey]: selfConsensus,
    "channelEnds/ports/transfer/channels/channel-7": channelEnd(ChannelState.STATE_INIT, ""),
    "channelEnds/ports/transfer/channels/channel-8": channelEnd(ChannelState.STATE_TRYOPEN, ackChannel),
  });
  const at51 = ibcStoreTree({
    "connections/connection-7": connectionEnd(ConnectionState.STATE_OPEN, clientId, trySide, [VERSION]),
    "channelEnds/ports/transfer/channels/channel-7": channelEnd(ChannelState.STATE_OPEN, tryChannel),
    "channelEnds/ports/transfer/channels/channel-8": channelEnd(ChannelState.STATE_CLOSED, ackChannel),
  });
  const h50 = { revisionNumber: 2n, revisionHeight: 50n };
  const h51 = { revisionNumber: 2n, revisionHeight: 51n };
  expect(await chain.createClient(chain.consensusTime, at50.appHash)).to.equal(clientId);
  const counterparty = (connectionId: string) => ({ clientId: PEER_CLIENT, connectionId, prefix: { keyPrefix: utf8("ibc") } });
  const selfProofs = (tree: typeof at50) => ({
    clientState: selfClient,
    proofClient: tree.proof(`clients/${PEER_CLIENT}/clientState`),
    proofConsensus: tree.proof(consensusKey),
    proofHeight: h50,
    consensusHeight: { revisionNumber: revision, revisionHeight: selfHeight },
  });
  const connection = async (id: string) => (await io.rest(`/ibc/core/connection/v1beta1/connections/${id}`)).connection;
  const channel = async (id: string) => (await io.rest(`/ibc/core/channel/v1beta1/channels/${id}/ports/transfer`)).channel;
  const connectionEvent = (connectionId: string, counterpartyConnection: string) => ({
    connection_id: connectionId,
    client_id: clientId,
    counterparty_client_id: PEER_CLIENT,
    counterparty_connection_id: counterpartyConnection,
  });

  // ICS-03, the initiating side: INIT, then Ack with the counterparty's TRYOPEN end → OPEN
  await ok(msg("/ibc.core.connection.v1.MsgConnectionOpenInit", { clientId, counterparty: counterparty(""), delayPeriod: 0n }));
  const acked = await ok(
    msg("/ibc.core.connection.v1.MsgConnectionOpenAck", {
      ...selfProofs(at50),
      connectionId: ackSide,
      counterpartyConnectionId: "connection-8",
      version: VERSION,
      proofTry: at50.proof("connections/connection-8"),
    }),
  );
  expect(acked.get("connection_open_ack")).to.deep.equal(connectionEvent(ackSide, "connection-8"));
  expect(acked.get("message")).to.deep.include({ module: "ibc_connection" });
  expect(await connection(ackSide)).to.deep.include({ state: "STATE_OPEN", client_id: clientId });
  expect((await connection(ackSide)).counterparty.connection_id).to.equal("connection-8");

  // ICS-03, the answering side: Try with the counterparty's INIT end → TRYOPEN; after the update to 2-51, Confirm → OPEN
  const tryMsg = (change: Record<string, unknown> = {}) =>
    msg("/ibc.core.connection.v1.MsgConnectionOpenTry", {
      ...selfProofs(at50),
      clientId,
      counterparty: counterparty("connection-7"),
      delayPeriod: 0n,
      counterpartyVersions: [VERSION],
      proofInit: at50.proof("connections/connection-7"),
      ...change,
    });
  const otherChain = { ...selfClient, value: ClientState.encode({ ...ClientState.decode(selfClient.value), chainId: "other-9" }).finish() };
  await io.refused(
    tryMsg({ clientState: otherChain }),
    "client",
    3,
    `connection handshake open try failed: invalid chain-id. expected: ${chainId}, got: other-9: light client is invalid`,
  );
  await io.refused(
    tryMsg({ proofConsensus: at50.proof(`clients/${PEER_CLIENT}/clientState`) }),
    "commitment",
    2,
    `connection handshake open try failed: failed consensus state verification for client (${clientId}): chained membership proof failed to verify membership of value`,
  );
  const tried = await ok(tryMsg());
  expect(tried.get("connection_open_try")).to.deep.equal(connectionEvent(trySide, "connection-7"));
  expect(await connection(trySide)).to.deep.include({ state: "STATE_TRYOPEN", client_id: clientId });
  expect((await connection(trySide)).versions).to.deep.equal([{ identifier: "1", features: ["ORDER_ORDERED", "ORDER_UNORDERED"] }]);
  expect((await io.rest(`/ibc/core/connection/v1beta1/client_connections/${clientId}`)).connection_paths).to.deep.equal([ackSide, trySide]);
  // the INIT proof does not prove the OPEN end: refused before the update
  await io.refused(
    msg("/ibc.core.connection.v1.MsgConnectionOpenConfirm", { connectionId: trySide, proofAck: at50.proof("connections/connection-7"), proofHeight: h50 }),
    "commitment",
    2,
    `connection handshake open confirm failed: failed connection state verification for client (${clientId}): chained membership proof failed to verify membership of value`,
  );
  await ok(chain.update(clientId, at51.appHash));
  const confirmed = await ok(
    msg("/ibc.core.connection.v1.MsgConnectionOpenConfirm", { connectionId: trySide, proofAck: at51.proof("connections/connection-7"), proofHeight: h51 }),
  );
  expect(confirmed.get("connection_open_confirm")).to.deep.equal(connectionEvent(trySide, "connection-7"));
  expect((await connection(trySide)).state).to.equal("STATE_OPEN");

  // ICS-04 on the OPEN connection (its counterparty is connection-8): Init + Ack → OPEN, then CloseConfirm → CLOSED
  const channelEvent = (channelId: string, counterpartyChannel: string) => ({
    port_id: "transfer",
    channel_id: channelId,
    counterparty_port_id: "transfer",
    counterparty_channel_id: counterpartyChannel,
    connection_id: ackSide,
  });
  const newChannel = (state: ChannelState, counterpartyChannel: string) => ({
    state,
    ordering: Order.ORDER_UNORDERED,
    counterparty: { portId: "transfer", channelId: counterpartyChannel },
    connectionHops: [ackSide],
    version: "ics20-1",
  });
  /** a step proved by the counterparty channel's end at 2-51: the event and the end's new state */
  const channelConfirm = async (type: string, proofField: string, channelId: string, counterpartyChannel: string, event: string, state: string) => {
    const proof = at51.proof(`channelEnds/ports/transfer/channels/${counterpartyChannel}`);
    const events = await ok(msg(`/ibc.core.channel.v1.${type}`, { portId: "transfer", channelId, [proofField]: proof, proofHeight: h51 }));
    expect(events.get(event)).to.deep.equal(channelEvent(channelId, counterpartyChannel));
    expect((await channel(channelId)).state).to.equal(state);
  };
  await ok(msg("/ibc.core.channel.v1.MsgChannelOpenInit", { portId: "transfer", channel: newChannel(ChannelState.STATE_INIT, "") }));
  const chanAcked = await ok(
    msg("/ibc.core.channel.v1.MsgChannelOpenAck", {
      portId: "transfer",
      channelId: ackChannel,
      counterpartyChannelId: "channel-8",
      counterpartyVersion: "ics20-1",
      proofTry: at50.proof("channelEnds/ports/transfer/channels/channel-8"),
      proofHeight: h50,
    }),
  );
  expect(chanAcked.get("channel_open_ack")).to.deep.equal(channelEvent(ackChannel, "channel-8"));
  expect(chanAcked.get("message")).to.deep.include({ module: "ibc_channel" });
  expect(await channel(ackChannel)).to.deep.include({ state: "STATE_OPEN", version: "ics20-1" });

  // Try with the counterparty's INIT channel-7 → TRYOPEN (sequences at 1), then Confirm with its OPEN end at 2-51
  const chanTried = await ok(
    msg("/ibc.core.channel.v1.MsgChannelOpenTry", {
      portId: "transfer",
      channel: newChannel(ChannelState.STATE_TRYOPEN, "channel-7"),
      counterpartyVersion: "ics20-1",
      proofInit: at50.proof("channelEnds/ports/transfer/channels/channel-7"),
      proofHeight: h50,
    }),
  );
  expect(chanTried.get("channel_open_try")).to.deep.equal(channelEvent(tryChannel, "channel-7"));
  expect(await channel(tryChannel)).to.deep.include({ state: "STATE_TRYOPEN", ordering: "ORDER_UNORDERED" });
  expect((await io.rest(`/ibc/core/channel/v1beta1/channels/${tryChannel}/ports/transfer/next_sequence`)).next_sequence_receive).to.equal("1");
  await channelConfirm("MsgChannelOpenConfirm", "proofAck", tryChannel, "channel-7", "channel_open_confirm", "STATE_OPEN");
  // the transfer module refuses closing from this side; the counterparty's CLOSED end closes it here
  await io.refused(
    msg("/ibc.core.channel.v1.MsgChannelCloseInit", { portId: "transfer", channelId: ackChannel }),
    "sdk",
    18,
    "channel close init callback failed: user cannot close channel: invalid request",
  );
  await channelConfirm("MsgChannelCloseConfirm", "proofInit", ackChannel, "channel-8", "channel_close_confirm", "STATE_CLOSED");
}
