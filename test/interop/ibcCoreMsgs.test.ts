import { expect } from "chai";
import path from "node:path";
import { createHash } from "node:crypto";
import type { EncodeObject } from "@cosmjs/proto-signing";
import { ClientState, ConsensusState, Header, Misbehaviour } from "cosmjs-types/ibc/lightclients/tendermint/v1/tendermint";
import { MerkleProof } from "cosmjs-types/ibc/core/commitment/v1/commitment";
import { Order, State as ChannelState, type Packet } from "cosmjs-types/ibc/core/channel/v1/channel";
import type { Any } from "cosmjs-types/google/protobuf/any";
import { SDK_PROOF_SPECS, startIbcTestChain, stopIbcTestChain, type IbcTestChain } from "../helpers/ibcTestChain.js";
import { tempDir } from "../helpers/tempDir.js";

const sha256 = (text: string) => Uint8Array.from(createHash("sha256").update(text).digest());
const utf8 = (text: string) => new TextEncoder().encode(text);
const height = (revisionNumber: bigint, revisionHeight: bigint) => ({ revisionNumber, revisionHeight });
const seconds = (value: bigint) => ({ seconds: value, nanos: 0 });

/** A 07-tendermint client state of a chain "other-2" at height 2-50, with `change` applied. */
function clientStateAny(change: Partial<ClientState> = {}): Any {
  const state = ClientState.fromPartial({
    chainId: "other-2",
    trustLevel: { numerator: 1n, denominator: 3n },
    trustingPeriod: seconds(1_209_600n),
    unbondingPeriod: seconds(1_814_400n),
    maxClockDrift: seconds(10n),
    frozenHeight: height(0n, 0n),
    latestHeight: height(2n, 50n),
    proofSpecs: SDK_PROOF_SPECS,
    upgradePath: ["upgrade", "upgradedIBCState"],
    ...change,
  });
  return { typeUrl: "/ibc.lightclients.tendermint.v1.ClientState", value: ClientState.encode(state).finish() };
}

function consensusStateAny(change: Partial<ConsensusState> = {}): Any {
  const state = ConsensusState.fromPartial({
    timestamp: seconds(BigInt(Math.floor(Date.now() / 1000) - 60)),
    root: { hash: sha256("other-2 app hash at 50") },
    nextValidatorsHash: sha256("other-2 validators"),
    ...change,
  });
  return { typeUrl: "/ibc.lightclients.tendermint.v1.ConsensusState", value: ConsensusState.encode(state).finish() };
}

/** A packet from the peer's transfer/channel-9 to this chain's transfer/channel-0 (the development genesis's channel). */
function peerPacket(change: Partial<Packet> = {}): Packet {
  return {
    sequence: 1n,
    sourcePort: "transfer",
    sourceChannel: "channel-9",
    destinationPort: "transfer",
    destinationChannel: "channel-0",
    data: utf8('{"amount":"1","denom":"uother","receiver":"x","sender":"y"}'),
    // a later revision of this chain: never reached here
    timeoutHeight: height(9n, 1n),
    timeoutTimestamp: 0n,
    ...change,
  };
}

/** A MerkleProof of `n` (empty) commitment proofs. */
const merkleProof = (n: number) => MerkleProof.encode(MerkleProof.fromPartial({ proofs: Array.from({ length: n }, () => ({})) })).finish();

describe("interop: the IBC client, connection and channel Msg services (cosmjs, cosmos naming profile)", function () {
  this.timeout(120_000);
  const home = path.join(tempDir(), "home");
  let chain: IbcTestChain | undefined;
  let signer: string;

  const msg = (typeUrl: string, value: Record<string, unknown>): EncodeObject => ({ typeUrl, value: { signer, ...value } });
  let rest: IbcTestChain["io"]["rest"];
  let outcome: IbcTestChain["io"]["outcome"];
  let refused: IbcTestChain["io"]["refused"];

  before(async () => {
    chain = await startIbcTestChain(home);
    signer = chain.signer;
    ({ rest, outcome, refused } = chain.io);
  });
  after(() => stopIbcTestChain(chain));

  it("create client → connection open init → channel open init, each stored and queryable, with the real events", async () => {
    const created = await outcome(msg("/ibc.core.client.v1.MsgCreateClient", { clientState: clientStateAny(), consensusState: consensusStateAny() }));
    expect(created.code, created.log).to.equal(0);
    expect(created.events.get("create_client")).to.deep.equal({ client_id: "07-tendermint-1", client_type: "07-tendermint", consensus_height: "2-50" });
    expect(created.events.get("message")).to.deep.include({ module: "ibc_client" });
    const states = (await rest("/ibc/core/client/v1beta1/client_states")).client_states as Array<{ client_id: string; client_state: Record<string, unknown> }>;
    const mine = states.find((s) => s.client_id === "07-tendermint-1")!;
    expect(mine.client_state).to.deep.include({ "@type": "/ibc.lightclients.tendermint.v1.ClientState", chain_id: "other-2" });
    expect(mine.client_state.latest_height).to.deep.equal({ revision_number: "2", revision_height: "50" });
    const consensus = await rest("/ibc/core/client/v1beta1/consensus_states/07-tendermint-1/revision/2/height/50");
    expect(consensus.consensus_state.root.hash).to.equal(Buffer.from(sha256("other-2 app hash at 50")).toString("base64"));

    const counterparty = { clientId: "07-tendermint-7", connectionId: "", prefix: { keyPrefix: utf8("ibc") } };
    const opened = await outcome(msg("/ibc.core.connection.v1.MsgConnectionOpenInit", { clientId: "07-tendermint-1", counterparty, delayPeriod: 0n }));
    expect(opened.code, opened.log).to.equal(0);
    expect(opened.events.get("connection_open_init")).to.deep.equal({
      connection_id: "connection-1",
      client_id: "07-tendermint-1",
      counterparty_client_id: "07-tendermint-7",
      counterparty_connection_id: "",
    });
    const connection = (await rest("/ibc/core/connection/v1beta1/connections/connection-1")).connection;
    expect(connection).to.deep.include({ client_id: "07-tendermint-1", state: "STATE_INIT", delay_period: "0" });
    expect(connection.versions).to.deep.equal([{ identifier: "1", features: ["ORDER_ORDERED", "ORDER_UNORDERED"] }]);
    expect((await rest("/ibc/core/connection/v1beta1/client_connections/07-tendermint-1")).connection_paths).to.deep.equal(["connection-1"]);

    const channel = {
      state: ChannelState.STATE_INIT,
      ordering: Order.ORDER_UNORDERED,
      counterparty: { portId: "transfer", channelId: "" },
      connectionHops: ["connection-1"],
      version: "ics20-1",
    };
    const chanInit = await outcome(msg("/ibc.core.channel.v1.MsgChannelOpenInit", { portId: "transfer", channel }));
    expect(chanInit.code, chanInit.log).to.equal(0);
    expect(chanInit.events.get("channel_open_init")).to.deep.equal({
      port_id: "transfer",
      channel_id: "channel-1",
      counterparty_port_id: "transfer",
      counterparty_channel_id: "",
      connection_id: "connection-1",
    });
    expect(chanInit.events.get("message")).to.deep.include({ module: "ibc_channel" });
    const stored = (await rest("/ibc/core/channel/v1beta1/channels/channel-1/ports/transfer")).channel;
    expect(stored).to.deep.include({ state: "STATE_INIT", ordering: "ORDER_UNORDERED", version: "ics20-1" });
    expect((await rest("/ibc/core/channel/v1beta1/channels/channel-1/ports/transfer/next_sequence")).next_sequence_receive).to.equal("1");

    // the handshake goes no further on this chain: its connection is not OPEN, nor TRYOPEN
    await refused(
      msg("/ibc.core.channel.v1.MsgChannelOpenAck", {
        portId: "transfer",
        channelId: "channel-1",
        counterpartyChannelId: "channel-4",
        counterpartyVersion: "ics20-1",
        proofTry: merkleProof(2),
        proofHeight: height(2n, 50n),
      }),
      "connection",
      6,
      "channel handshake open ack failed: connection state is not OPEN (got STATE_INIT): invalid connection state",
    );
    await refused(
      msg("/ibc.core.connection.v1.MsgConnectionOpenConfirm", { connectionId: "connection-1", proofAck: merkleProof(2), proofHeight: height(2n, 50n) }),
      "connection",
      6,
      "connection handshake open confirm failed: connection state is not TRYOPEN (got STATE_INIT): invalid connection state",
    );
  });

  it("the keepers' errors on this chain: unknown clients, connections, ports and channels, callbacks, proofs", async () => {
    const counterparty = { clientId: "07-tendermint-7", connectionId: "", prefix: { keyPrefix: utf8("ibc") } };
    await refused(
      msg("/ibc.core.connection.v1.MsgConnectionOpenInit", { clientId: "07-tendermint-9", counterparty, delayPeriod: 0n }),
      "client",
      4,
      "connection handshake open init failed: 07-tendermint-9: light client not found",
    );
    const channel = (change: Record<string, unknown>) => ({
      state: ChannelState.STATE_INIT,
      ordering: Order.ORDER_UNORDERED,
      counterparty: { portId: "transfer", channelId: "" },
      connectionHops: ["connection-0"],
      version: "ics20-1",
      ...change,
    });
    const chanInit = (portId: string, change: Record<string, unknown>) => msg("/ibc.core.channel.v1.MsgChannelOpenInit", { portId, channel: channel(change) });
    await refused(
      chanInit("transfer", { connectionHops: ["connection-9"] }),
      "connection",
      3,
      "channel handshake open init failed: connection-9: connection not found",
    );
    await refused(chanInit("other", {}), "capability", 7, "could not retrieve module from port-id: ports/other: capability not found");
    await refused(
      chanInit("transfer", { ordering: Order.ORDER_ORDERED }),
      "channel",
      6,
      "channel open init callback failed: expected ORDER_UNORDERED channel, got ORDER_ORDERED : invalid channel ordering",
    );
    await refused(
      chanInit("transfer", { version: "ics20-2" }),
      "transfer",
      4,
      "channel open init callback failed: got ics20-2, expected ics20-1: invalid ICS20 version",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgChannelCloseInit", { portId: "transfer", channelId: "channel-0" }),
      "sdk",
      18,
      "channel close init callback failed: user cannot close channel: invalid request",
    );

    const recv = (packet: Packet, proofCommitment: Uint8Array, proofHeight = height(1n, 1200n)) =>
      msg("/ibc.core.channel.v1.MsgRecvPacket", { packet, proofCommitment, proofHeight });
    await refused(
      recv(peerPacket({ destinationChannel: "channel-9" }), merkleProof(2)),
      "capability",
      7,
      "could not retrieve module from port-id: capabilities/ports/transfer/channels/channel-9: capability not found",
    );
    await refused(
      recv(peerPacket({ sourceChannel: "channel-8" }), merkleProof(2)),
      "channel",
      13,
      "receive packet verification failed: packet source channel doesn't match the counterparty's channel (channel-8 ≠ channel-9): invalid packet",
    );
    const verification =
      "receive packet verification failed: couldn't verify counterparty packet commitment: failed packet commitment verification for client (07-tendermint-0)";
    await refused(
      recv(peerPacket(), merkleProof(2), height(1n, 5000n)),
      "sdk",
      26,
      `${verification}: client state height < proof height ({1 1200} < {1 5000}): invalid height`,
    );
    await refused(
      recv(peerPacket(), Uint8Array.of(1, 2, 3)),
      "commitment",
      2,
      `${verification}: failed to unmarshal proof into commitment merkle proof: invalid proof`,
    );
    await refused(
      recv(peerPacket(), merkleProof(2), height(1n, 1100n)),
      "client",
      7,
      `${verification}: consensus state does not exist for height 1-1100: consensus state not found`,
    );
    await refused(
      recv(peerPacket(), merkleProof(1)),
      "commitment",
      4,
      `${verification}: length of specs: 2 not equal to length of proof: 1: invalid merkle proof`,
    );
    // two empty commitment proofs: neither an existence nor a non-existence proof (the hashing itself: ibcProofs.test.ts)
    await refused(
      recv(peerPacket(), merkleProof(2)),
      "commitment",
      2,
      `${verification}: expected proof type: *ics23.CommitmentProof_Exist, got: <nil>: invalid proof`,
    );

    // packet 2 of the development genesis: sent on channel-0 towards the peer's channel-9, still committed
    const sent = peerPacket({ sourceChannel: "channel-0", destinationChannel: "channel-9", sequence: 2n, timeoutHeight: height(1n, 2200n) });
    await refused(
      msg("/ibc.core.channel.v1.MsgTimeout", { packet: sent, proofUnreceived: merkleProof(2), proofHeight: height(1n, 1200n), nextSequenceRecv: 1n }),
      "channel",
      14,
      "timeout packet verification failed: packet timeout has not been reached for height or timestamp: packet timeout",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgAcknowledgement", {
        packet: sent,
        acknowledgement: utf8('{"result":"AQ=="}'),
        proofAcked: merkleProof(2),
        proofHeight: height(1n, 1200n),
      }),
      "channel",
      13,
      "acknowledge packet verification failed: commitment bytes are not equal: got ([",
    );
  });

  it("each Msg runs its real ValidateBasic in CheckTx", async () => {
    const create = (clientState: Any, consensusState = consensusStateAny()) => msg("/ibc.core.client.v1.MsgCreateClient", { clientState, consensusState });
    await refused(create(clientStateAny({ chainId: "" })), "tendermint-client", 2, "chain id cannot be empty string: invalid chain-id");
    await refused(create(clientStateAny({ trustLevel: { numerator: 1n, denominator: 4n } })), "undefined", 1, "trustLevel must be within [1/3, 1], given 1/4");
    await refused(
      create(clientStateAny({ trustingPeriod: seconds(1_814_400n), unbondingPeriod: seconds(1_209_600n) })),
      "tendermint-client",
      3,
      "trusting period (504h0m0s) should be < unbonding period (336h0m0s): invalid trusting period",
    );
    await refused(
      create(clientStateAny(), consensusStateAny({ root: { hash: new Uint8Array() } })),
      "client",
      8,
      "root cannot be empty: invalid consensus state",
    );
    await refused(create(consensusStateAny()), "sdk", 2, "no concrete type registered for type URL /ibc.lightclients.tendermint.v1.ConsensusState");
    const header = { typeUrl: "/ibc.lightclients.tendermint.v1.Header", value: Header.encode(Header.fromPartial({})).finish() };
    await refused(
      msg("/ibc.core.client.v1.MsgUpdateClient", { clientId: "07-tendermint-0", clientMessage: header }),
      "client",
      12,
      "tendermint signed header cannot be nil: invalid client header",
    );
    await refused(
      msg("/ibc.core.client.v1.MsgUpgradeClient", {
        clientId: "07-tendermint-0",
        clientState: clientStateAny(),
        consensusState: consensusStateAny(),
        proofUpgradeClient: new Uint8Array(),
        proofUpgradeConsensusState: merkleProof(2),
      }),
      "client",
      25,
      "proof of upgrade client cannot be empty: invalid client upgrade",
    );
    const misbehaviour = {
      typeUrl: "/ibc.lightclients.tendermint.v1.Misbehaviour",
      value: Misbehaviour.encode(Misbehaviour.fromPartial({ clientId: "07-tendermint-0" })).finish(),
    };
    await refused(
      msg("/ibc.core.client.v1.MsgSubmitMisbehaviour", { clientId: "07-tendermint-0", misbehaviour }),
      "tendermint-client",
      6,
      "misbehaviour Header1 cannot be nil: invalid header",
    );

    const counterparty = { clientId: "07-tendermint-7", connectionId: "", prefix: { keyPrefix: utf8("ibc") } };
    await refused(
      msg("/ibc.core.connection.v1.MsgConnectionOpenInit", { clientId: "x", counterparty }),
      "host",
      2,
      "invalid client ID: identifier x has invalid length: 1, must be between 9-64 characters: invalid identifier",
    );
    await refused(
      msg("/ibc.core.connection.v1.MsgConnectionOpenInit", { clientId: "07-tendermint-0", counterparty: { ...counterparty, connectionId: "connection-2" } }),
      "connection",
      7,
      "counterparty connection identifier must be empty: invalid counterparty connection",
    );
    await refused(
      msg("/ibc.core.connection.v1.MsgConnectionOpenTry", {
        clientId: "07-tendermint-0",
        counterparty: { ...counterparty, connectionId: "connection-2" },
        clientState: clientStateAny(),
        counterpartyVersions: [{ identifier: "1", features: ["ORDER_UNORDERED"] }],
        proofInit: new Uint8Array(),
        proofHeight: height(1n, 1200n),
        consensusHeight: height(0n, 1n),
      }),
      "commitment",
      2,
      "cannot submit an empty proof init: invalid proof",
    );
    await refused(msg("/ibc.core.connection.v1.MsgConnectionOpenAck", { connectionId: "conn-1" }), "connection", 11, "invalid connection identifier");
    await refused(
      msg("/ibc.core.connection.v1.MsgConnectionOpenConfirm", { connectionId: "connection-0", proofAck: merkleProof(2), proofHeight: height(0n, 0n) }),
      "sdk",
      26,
      "proof height must be non-zero: invalid height",
    );

    const channel = {
      state: ChannelState.STATE_TRYOPEN,
      ordering: Order.ORDER_UNORDERED,
      counterparty: { portId: "transfer", channelId: "" },
      connectionHops: ["connection-0"],
      version: "ics20-1",
    };
    await refused(
      msg("/ibc.core.channel.v1.MsgChannelOpenInit", { portId: "transfer", channel }),
      "channel",
      5,
      "channel state must be INIT in MsgChannelOpenInit. expected: STATE_INIT, got: STATE_TRYOPEN: invalid channel state",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgChannelOpenInit", {
        portId: "transfer",
        channel: { ...channel, state: ChannelState.STATE_INIT, connectionHops: ["connection-0", "connection-1"] },
      }),
      "channel",
      15,
      "current IBC version only supports one connection hop: too many connection hops",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgChannelOpenTry", {
        portId: "transfer",
        channel,
        counterpartyVersion: "ics20-1",
        proofInit: new Uint8Array(),
        proofHeight: height(1n, 1n),
      }),
      "commitment",
      2,
      "cannot submit an empty proof init: invalid proof",
    );
    await refused(msg("/ibc.core.channel.v1.MsgChannelOpenAck", { portId: "transfer", channelId: "chan-1" }), "channel", 20, "invalid channel identifier");
    await refused(
      msg("/ibc.core.channel.v1.MsgChannelOpenConfirm", {
        portId: "transfer",
        channelId: "channel-0",
        proofAck: new Uint8Array(),
        proofHeight: height(1n, 1n),
      }),
      "commitment",
      2,
      "cannot submit an empty proof ack: invalid proof",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgChannelCloseInit", { portId: "a", channelId: "channel-0" }),
      "host",
      2,
      "invalid port ID: identifier a has invalid length: 1, must be between 2-64 characters: invalid identifier",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgChannelCloseConfirm", {
        portId: "transfer",
        channelId: "channel-0",
        proofInit: new Uint8Array(),
        proofHeight: height(1n, 1n),
      }),
      "commitment",
      2,
      "cannot submit an empty proof init: invalid proof",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgRecvPacket", { packet: peerPacket({ sequence: 0n }), proofCommitment: merkleProof(2), proofHeight: height(1n, 1n) }),
      "channel",
      13,
      "packet sequence cannot be 0: invalid packet",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgTimeout", { packet: peerPacket(), proofUnreceived: merkleProof(2), proofHeight: height(1n, 1n), nextSequenceRecv: 0n }),
      "sdk",
      3,
      "next sequence receive cannot be 0: invalid sequence",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgTimeoutOnClose", {
        packet: peerPacket(),
        proofUnreceived: merkleProof(2),
        proofClose: new Uint8Array(),
        proofHeight: height(1n, 1n),
        nextSequenceRecv: 1n,
      }),
      "commitment",
      2,
      "cannot submit an empty proof of closed counterparty channel end: invalid proof",
    );
    await refused(
      msg("/ibc.core.channel.v1.MsgAcknowledgement", {
        packet: peerPacket(),
        acknowledgement: new Uint8Array(),
        proofAcked: merkleProof(2),
        proofHeight: height(1n, 1n),
      }),
      "channel",
      16,
      "ack bytes cannot be empty: invalid acknowledgement",
    );
  });
});
