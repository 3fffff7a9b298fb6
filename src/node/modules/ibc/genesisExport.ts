import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { utf8 } from "../../store/moduleStore.js";
import { decodedAt, entriesUnder } from "../shared/exportReads.js";
import type { QueryContext } from "../nodeModule.js";
import { parseHeight } from "./host/heights.js";
import {
  CLIENT_PARAMS_KEY,
  NEXT_CHANNEL_SEQUENCE_KEY,
  NEXT_CLIENT_SEQUENCE_KEY,
  NEXT_CONNECTION_SEQUENCE_KEY,
  keyText,
  readUint64,
  type PacketStore,
  type SequenceKind,
} from "./host/hostPaths.js";

const sequenceAt = async (ctx: QueryContext, key: Uint8Array) => {
  const bytes = await ctx.store.get(key);
  return bytes ? readUint64(bytes).toString() : "0";
};

/** The entries under a text prefix, with the rest of each key split on "/". */
async function pathsUnder(ctx: QueryContext, prefix: string): Promise<Array<[string[], Uint8Array]>> {
  return (await entriesUnder(ctx.store, utf8(prefix))).map(([key, value]) => [keyText(key).split("/"), value]);
}

/**
 * The client part of ibc-go's ExportGenesis: each client's state, consensus states by height and
 * metadata (any other key under clients/{id}/ but its connections), the params and the next sequence.
 */
export async function exportClientGenesis(ctx: QueryContext): Promise<ProtoMessage> {
  const anyType = ctx.codec.type("google.protobuf.Any");
  const clients: ProtoMessage[] = [];
  const consensus = new Map<string, ProtoMessage[]>();
  const metadata = new Map<string, ProtoMessage[]>();
  for (const [[clientId, ...rest], value] of await pathsUnder(ctx, "clients/")) {
    const id = clientId!;
    const path = rest.join("/");
    if (path === "clientState") clients.push({ client_id: id, client_state: anyType.decode(value) });
    else if (rest[0] === "consensusStates" && rest.length === 2) {
      consensus.set(id, [...(consensus.get(id) ?? []), { height: parseHeight(rest[1]!), consensus_state: anyType.decode(value) }]);
    } else if (path !== "connections") metadata.set(id, [...(metadata.get(id) ?? []), { key: utf8(path), value }]);
  }
  return {
    client_genesis: {
      clients,
      clients_consensus: [...consensus].map(([client_id, consensus_states]) => ({ client_id, consensus_states })),
      clients_metadata: [...metadata].map(([client_id, client_metadata]) => ({ client_id, client_metadata })),
      params: await decodedAt(ctx.store, CLIENT_PARAMS_KEY, ctx, "ibc.core.client.v1.Params"),
      create_localhost: false,
      next_client_sequence: await sequenceAt(ctx, NEXT_CLIENT_SEQUENCE_KEY),
    },
  };
}

/** The connection part: every connection end with its id, each client's connection paths, the next sequence. */
export async function exportConnectionGenesis(ctx: QueryContext): Promise<ProtoMessage> {
  const endType = ctx.codec.type("ibc.core.connection.v1.ConnectionEnd");
  const pathsType = ctx.codec.type("ibc.core.connection.v1.ClientPaths");
  const connections = (await pathsUnder(ctx, "connections/")).map(([[id], value]) => ({ id, ...(endType.decode(value) as unknown as ProtoMessage) }));
  const paths: ProtoMessage[] = [];
  for (const [[clientId, ...rest], value] of await pathsUnder(ctx, "clients/")) {
    if (rest.join("/") === "connections") paths.push({ client_id: clientId, paths: (pathsType.decode(value) as unknown as ProtoMessage).paths ?? [] });
  }
  return {
    connection_genesis: {
      connections,
      client_connection_paths: paths,
      next_connection_sequence: await sequenceAt(ctx, NEXT_CONNECTION_SEQUENCE_KEY),
    },
  };
}

/** The channel part: channel ends, packet commitments, acknowledgements and receipts, the three sequences of each channel, the next sequence. */
export async function exportChannelGenesis(ctx: QueryContext): Promise<ProtoMessage> {
  const channelType = ctx.codec.type("ibc.core.channel.v1.Channel");
  // keys: {store}/ports/{port}/channels/{channel}[/sequences/{n}]
  const channels = (await pathsUnder(ctx, "channelEnds/")).map(([parts, value]) => ({
    port_id: parts[1],
    channel_id: parts[3],
    ...(channelType.decode(value) as unknown as ProtoMessage),
  }));
  const packets = async (store: PacketStore) =>
    (await pathsUnder(ctx, `${store}/`)).map(([parts, data]) => ({ port_id: parts[1], channel_id: parts[3], sequence: parts[5], data }));
  const sequences = async (kind: SequenceKind) =>
    (await pathsUnder(ctx, `${kind}/`)).map(([parts, value]) => ({ port_id: parts[1], channel_id: parts[3], sequence: readUint64(value).toString() }));
  return {
    channel_genesis: {
      channels,
      acknowledgements: await packets("acks"),
      commitments: await packets("commitments"),
      receipts: await packets("receipts"),
      send_sequences: await sequences("nextSequenceSend"),
      recv_sequences: await sequences("nextSequenceRecv"),
      ack_sequences: await sequences("nextSequenceAck"),
      next_channel_sequence: await sequenceAt(ctx, NEXT_CHANNEL_SEQUENCE_KEY),
    },
  };
}
