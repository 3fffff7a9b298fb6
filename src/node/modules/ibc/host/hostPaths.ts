import { concatBytes } from "../../../store/keyEncoding.js";
import { utf8 } from "../../../store/moduleStore.js";
import { formatHeight, type Height } from "./heights.js";
import { MODULE_PARAMS_KEY } from "../../shared/paramsKey.js";

/**
 * Store layout of the "ibc" store: the ICS-24 host paths of SDK v0.41, as text keys.
 *
 *   clients/{client}/clientState                  → Any of the client state
 *   clients/{client}/consensusStates/{rev}-{h}    → Any of the consensus state at that height
 *   clients/{client}/{metadata key}               → client metadata (genesis clients_metadata)
 *   clients/{client}/connections                  → ClientPaths: the client's connection ids
 *   connections/{connection}                      → ConnectionEnd
 *   channelEnds/ports/{port}/channels/{channel}   → Channel
 *   nextSequenceSend|Recv|Ack/ports/{port}/channels/{channel} → uint64 big-endian
 *   commitments|acks|receipts/ports/{port}/channels/{channel}/sequences/{n} → hash / receipt bytes
 *   nextClientSequence, nextConnectionSequence, nextChannelSequence → uint64 big-endian
 *   MODULE_PARAMS_KEY                             → ibc.core.client.v1.Params (x/params subspace "ibc" in the real app)
 */
export const CLIENTS_PREFIX = utf8("clients");
export const CONNECTIONS_PREFIX = utf8("connections");
export const CHANNELS_PREFIX = utf8("channelEnds");

export const NEXT_CLIENT_SEQUENCE_KEY = utf8("nextClientSequence");
export const NEXT_CONNECTION_SEQUENCE_KEY = utf8("nextConnectionSequence");
export const NEXT_CHANNEL_SEQUENCE_KEY = utf8("nextChannelSequence");
export const CLIENT_PARAMS_KEY = MODULE_PARAMS_KEY;

export const clientStateKey = (clientId: string) => utf8(`clients/${clientId}/clientState`);
export const consensusStatesPrefix = (clientId: string) => utf8(`clients/${clientId}/consensusStates/`);
export const consensusStateKey = (clientId: string, height: Height) => utf8(`clients/${clientId}/consensusStates/${formatHeight(height)}`);
export const clientMetadataKey = (clientId: string, key: Uint8Array) => concatBytes(utf8(`clients/${clientId}/`), key);
export const clientConnectionsKey = (clientId: string) => utf8(`clients/${clientId}/connections`);

export const connectionKey = (connectionId: string) => utf8(`connections/${connectionId}`);
export const channelKey = (portId: string, channelId: string) => utf8(`channelEnds/${channelPath(portId, channelId)}`);

export type SequenceKind = "nextSequenceSend" | "nextSequenceRecv" | "nextSequenceAck";
export const nextSequenceKey = (kind: SequenceKind, portId: string, channelId: string) => utf8(`${kind}/${channelPath(portId, channelId)}`);

export type PacketStore = "commitments" | "acks" | "receipts";
export const packetPrefix = (store: PacketStore, portId: string, channelId: string) => utf8(`${store}/${channelPath(portId, channelId)}/sequences`);
export const packetKey = (store: PacketStore, portId: string, channelId: string, sequence: bigint) =>
  utf8(`${store}/${channelPath(portId, channelId)}/sequences/${sequence}`);

function channelPath(portId: string, channelId: string): string {
  return `ports/${portId}/channels/${channelId}`;
}

const decoder = new TextDecoder();

export function keyText(key: Uint8Array): string {
  return decoder.decode(key);
}

/** The text of a key relative to a prefix, split on "/" ("/ports/p/channels/c" → ["", "ports", "p", "channels", "c"]). */
export function keyParts(key: Uint8Array): string[] {
  return decoder.decode(key).split("/");
}

/** uint64 values (sequences) as the SDK stores them: 8 bytes big-endian. */
export function uint64Value(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
}

export function readUint64(bytes: Uint8Array): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0);
}
