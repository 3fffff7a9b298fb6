import Long from "long";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { invalidArgument, notFound } from "../../../abci/queryError.js";
import { paginate, type PageRequest } from "../../../abci/paginate.js";
import type { KVReader } from "../../../store/kv.js";
import type { NodeModule, QueryContext } from "../../nodeModule.js";
import { getClientState, getConsensusState, requestHeight } from "../client/store.js";
import { getConnection } from "../connection/store.js";
import { selfHeight } from "../host/heights.js";
import {
  channelKey,
  CHANNELS_PREFIX,
  keyParts,
  NEXT_CHANNEL_SEQUENCE_KEY,
  nextSequenceKey,
  packetKey,
  packetPrefix,
  readUint64,
  uint64Value,
  type PacketStore,
  type SequenceKind,
} from "../host/hostPaths.js";
import { checkIdentifier, identifierParam } from "../host/identifiers.js";
import { fieldText } from "../../../../codec/fieldText.js";
import { exportChannelGenesis } from "../genesisExport.js";
import { channelHandshakeMessages } from "./handshakeMessages.js";
import { packetMessages } from "./packetMessages.js";

const STATE_UNINITIALIZED = 0;
const ORDER_NONE = 0;

/** ICS-04 channels and packets: channel_genesis of the "ibc" app_state entry and ibc.core.channel.v1.Query. Layout in ../host/hostPaths.ts. */
export const ibcChannelModule: NodeModule = {
  name: "ibc",
  genesisType: "ibc.core.types.v1.GenesisState",
  queryService: "ibc.core.channel.v1.Query",

  queries: {
    async Channel(request, ctx) {
      const { portId, channelId } = channelParams(request);
      const channel = await getChannel(ctx.store, portId, channelId, ctx);
      if (!channel) throw notFound(`port-id: ${portId}, channel-id ${channelId}: channel not found`);
      return { channel, proof_height: selfHeight(ctx) };
    },
    async Channels(request, ctx) {
      const page = await paginate(ctx.store, CHANNELS_PREFIX, request.pagination as PageRequest, (key, value) => identifiedChannel(key, value, ctx));
      return { channels: page.items, pagination: page.pagination, height: selfHeight(ctx) };
    },
    async ConnectionChannels(request, ctx) {
      const connection = identifierParam("connection", request.connection);
      // The channels of other connections are skipped and not counted (the real query counts them).
      const page = await paginate(ctx.store, CHANNELS_PREFIX, request.pagination as PageRequest, (key, value) => {
        const channel = identifiedChannel(key, value, ctx);
        return (channel.connection_hops as string[]).at(0) === connection ? channel : undefined;
      });
      return { channels: page.items, pagination: page.pagination, height: selfHeight(ctx) };
    },
    async ChannelClientState(request, ctx) {
      const { portId, channelId } = channelParams(request);
      const channel = await getChannel(ctx.store, portId, channelId, ctx);
      if (!channel) throw notFound(`port-id: ${portId}, channel-id: ${channelId}: channel not found`);
      const clientId = await channelClientId(channel, ctx);
      const clientState = await getClientState(ctx.store, clientId, ctx);
      if (!clientState) throw notFound(`client-id: ${clientId}: light client not found`);
      return { identified_client_state: { client_id: clientId, client_state: clientState }, proof_height: selfHeight(ctx) };
    },
    async ChannelConsensusState(request, ctx) {
      const { portId, channelId } = channelParams(request);
      const channel = await getChannel(ctx.store, portId, channelId, ctx);
      if (!channel) throw notFound(`port-id: ${portId}, channel-id ${channelId}: channel not found`);
      const clientId = await channelClientId(channel, ctx);
      const consensusState = await getConsensusState(ctx.store, clientId, requestHeight(request), ctx);
      if (!consensusState) throw notFound(`client-id: ${clientId}: consensus state not found`);
      return { consensus_state: consensusState, client_id: clientId, proof_height: selfHeight(ctx) };
    },
    async PacketCommitment(request, ctx) {
      const { portId, channelId } = channelParams(request);
      const commitment = await ctx.store.get(packetKey("commitments", portId, channelId, sequenceParam(request.sequence)));
      if (!commitment || commitment.length === 0) throw notFound("packet commitment hash not found");
      return { commitment, proof_height: selfHeight(ctx) };
    },
    async PacketCommitments(request, ctx) {
      const page = await packetStates("commitments", request, ctx);
      return { commitments: page.items, pagination: page.pagination, height: selfHeight(ctx) };
    },
    async PacketReceipt(request, ctx) {
      const { portId, channelId } = channelParams(request);
      const receipt = await ctx.store.get(packetKey("receipts", portId, channelId, sequenceParam(request.sequence)));
      return { received: receipt !== undefined, proof_height: selfHeight(ctx) };
    },
    async PacketAcknowledgement(request, ctx) {
      const { portId, channelId } = channelParams(request);
      const ack = await ctx.store.get(packetKey("acks", portId, channelId, sequenceParam(request.sequence)));
      if (!ack || ack.length === 0) throw notFound("packet acknowledgement hash not found");
      return { acknowledgement: ack, proof_height: selfHeight(ctx) };
    },
    async PacketAcknowledgements(request, ctx) {
      const page = await packetStates("acks", request, ctx);
      return { acknowledgements: page.items, pagination: page.pagination, height: selfHeight(ctx) };
    },
    async UnreceivedPackets(request, ctx) {
      // A packet is unreceived while this chain holds no receipt for it.
      const sequences = await sequencesWhere(request, request.packet_commitment_sequences, async (key) => (await ctx.store.get(key("receipts"))) === undefined);
      return { sequences, height: selfHeight(ctx) };
    },
    async UnreceivedAcks(request, ctx) {
      // An acknowledgement is unreceived while the commitment of its packet is still stored.
      const sequences = await sequencesWhere(
        request,
        request.packet_ack_sequences,
        async (key) => ((await ctx.store.get(key("commitments")))?.length ?? 0) > 0,
      );
      return { sequences, height: selfHeight(ctx) };
    },
    async NextSequenceReceive(request, ctx) {
      const { portId, channelId } = channelParams(request);
      const bytes = await ctx.store.get(nextSequenceKey("nextSequenceRecv", portId, channelId));
      if (!bytes) throw notFound(`port-id: ${portId}, channel-id ${channelId}: sequence receive not found`);
      return { next_sequence_receive: Long.fromString(readUint64(bytes).toString(), true), proof_height: selfHeight(ctx) };
    },
  },

  messages: { ...channelHandshakeMessages, ...packetMessages },

  validateGenesis(state) {
    const genesis = (state.channel_genesis ?? {}) as ProtoMessage;
    const where = "channel_genesis";
    const channels = new Set<string>();
    let maxSequence = -1n;
    ((genesis.channels ?? []) as ProtoMessage[]).forEach((channel, i) => {
      const field = `${where}.channels[${i}]`;
      const portId = checkIdentifier("port", channel.port_id, `${field}.port_id`);
      const channelId = checkIdentifier("channel", channel.channel_id, `${field}.channel_id`);
      if (channels.has(`${portId}/${channelId}`)) throw new Error(`${field}: duplicate channel ${channelId} on port ${portId}`);
      channels.add(`${portId}/${channelId}`);
      const match = /^channel-(\d+)$/.exec(channelId);
      if (!match) throw new Error(`${field}.channel_id: a channel id has the form channel-{N}, got ${channelId}`);
      if (BigInt(match[1]!) > maxSequence) maxSequence = BigInt(match[1]!);
      if ((channel.state ?? STATE_UNINITIALIZED) === STATE_UNINITIALIZED)
        throw new Error(`${field}.state: channel state cannot be STATE_UNINITIALIZED_UNSPECIFIED`);
      if ((channel.ordering ?? ORDER_NONE) === ORDER_NONE) throw new Error(`${field}.ordering: channel ordering cannot be ORDER_NONE_UNSPECIFIED`);
      const hops = (channel.connection_hops ?? []) as string[];
      if (hops.length !== 1) throw new Error(`${field}.connection_hops: a channel has exactly one connection hop, got ${hops.length}`);
      checkIdentifier("connection", hops[0], `${field}.connection_hops[0]`);
      const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
      checkIdentifier("port", counterparty.port_id, `${field}.counterparty.port_id`);
      if (counterparty.channel_id) checkIdentifier("channel", counterparty.channel_id, `${field}.counterparty.channel_id`);
    });
    for (const list of ["acknowledgements", "commitments", "receipts"] as const) {
      ((genesis[list] ?? []) as ProtoMessage[]).forEach((packet, i) => {
        const field = `${where}.${list}[${i}]`;
        checkChannelIds(packet, field);
        if (BigInt(fieldText(packet.sequence, "0")) === 0n) throw new Error(`${field}.sequence: packet sequence cannot be 0`);
        if (((packet.data as Uint8Array | undefined)?.length ?? 0) === 0) throw new Error(`${field}.data: data bytes cannot be empty`);
      });
    }
    for (const list of ["send_sequences", "recv_sequences", "ack_sequences"] as const) {
      ((genesis[list] ?? []) as ProtoMessage[]).forEach((entry, i) => checkChannelIds(entry, `${where}.${list}[${i}]`));
    }
    const next = BigInt(fieldText(genesis.next_channel_sequence, "0"));
    if (maxSequence >= 0n && next <= maxSequence) {
      throw new Error(`${where}.next_channel_sequence: ${next} must be greater than the largest sequence of the channel ids (${maxSequence})`);
    }
  },

  exportGenesis: exportChannelGenesis,

  async initGenesis(state, ctx) {
    const genesis = (state.channel_genesis ?? {}) as ProtoMessage;
    const channelType = ctx.codec.type("ibc.core.channel.v1.Channel");
    for (const channel of (genesis.channels ?? []) as ProtoMessage[]) {
      const { port_id, channel_id, ...end } = channel;
      ctx.store.set(channelKey(String(port_id), String(channel_id)), channelType.encode(end).finish());
    }
    const packetLists: Array<[string, PacketStore]> = [
      ["commitments", "commitments"],
      ["acknowledgements", "acks"],
      ["receipts", "receipts"],
    ];
    for (const [list, store] of packetLists) {
      for (const packet of (genesis[list] ?? []) as ProtoMessage[]) {
        ctx.store.set(packetKey(store, String(packet.port_id), String(packet.channel_id), BigInt(String(packet.sequence))), packet.data as Uint8Array);
      }
    }
    const sequenceLists: Array<[string, SequenceKind]> = [
      ["send_sequences", "nextSequenceSend"],
      ["recv_sequences", "nextSequenceRecv"],
      ["ack_sequences", "nextSequenceAck"],
    ];
    for (const [list, kind] of sequenceLists) {
      for (const entry of (genesis[list] ?? []) as ProtoMessage[]) {
        ctx.store.set(nextSequenceKey(kind, String(entry.port_id), String(entry.channel_id)), uint64Value(BigInt(fieldText(entry.sequence, "0"))));
      }
    }
    ctx.store.set(NEXT_CHANNEL_SEQUENCE_KEY, uint64Value(BigInt(fieldText(genesis.next_channel_sequence, "0"))));
  },
};

function channelParams(request: ProtoMessage): { portId: string; channelId: string } {
  return { portId: identifierParam("port", request.port_id), channelId: identifierParam("channel", request.channel_id) };
}

function sequenceParam(value: unknown): bigint {
  const sequence = BigInt(fieldText(value, "0"));
  if (sequence === 0n) throw invalidArgument("packet sequence cannot be 0");
  return sequence;
}

function checkChannelIds(entry: ProtoMessage, field: string): void {
  checkIdentifier("port", entry.port_id, `${field}.port_id`);
  checkIdentifier("channel", entry.channel_id, `${field}.channel_id`);
}

async function getChannel(store: KVReader, portId: string, channelId: string, ctx: QueryContext): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(channelKey(portId, channelId));
  return bytes ? ctx.codec.type("ibc.core.channel.v1.Channel").decode(bytes) : undefined;
}

/** Keys under "channelEnds" are "/ports/{port}/channels/{channel}". */
function identifiedChannel(key: Uint8Array, value: Uint8Array, ctx: QueryContext): ProtoMessage {
  const parts = keyParts(key);
  const channel = ctx.codec.type("ibc.core.channel.v1.Channel").decode(value) as unknown as ProtoMessage;
  return { ...channel, connection_hops: channel.connection_hops ?? [], port_id: parts[2], channel_id: parts[4] };
}

/** The client of a channel's connection (GetChannelClientState of the real keeper). */
async function channelClientId(channel: ProtoMessage, ctx: QueryContext): Promise<string> {
  const connectionId = String(((channel.connection_hops ?? []) as string[]).at(0) ?? "");
  const connection = await getConnection(ctx.store, connectionId, ctx);
  if (!connection) throw notFound(`connection-id: ${connectionId}: connection not found`);
  return String(connection.client_id);
}

/** One channel's packet commitments or acknowledgements; keys under the prefix are "/{sequence}". */
function packetStates(store: PacketStore, request: ProtoMessage, ctx: QueryContext) {
  const { portId, channelId } = channelParams(request);
  return paginate(ctx.store, packetPrefix(store, portId, channelId), request.pagination as PageRequest, (key, value) => {
    const parts = keyParts(key);
    return { port_id: portId, channel_id: channelId, sequence: Long.fromString(parts[parts.length - 1]!, true), data: value };
  });
}

/** The requested sequences (0 is refused, naming its position) for which `keep` holds. */
async function sequencesWhere(request: ProtoMessage, list: unknown, keep: (key: (store: PacketStore) => Uint8Array) => Promise<boolean>): Promise<Long[]> {
  const { portId, channelId } = channelParams(request);
  const out: Long[] = [];
  const sequences = ((list ?? []) as Array<Long | number>).map((value) => BigInt(String(value)));
  for (const [i, sequence] of sequences.entries()) {
    if (sequence === 0n) throw invalidArgument(`packet sequence ${i} cannot be 0`);
    if (await keep((store) => packetKey(store, portId, channelId, sequence))) out.push(Long.fromString(sequence.toString(), true));
  }
  return out;
}
