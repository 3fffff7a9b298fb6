import type { ExecContext } from "../../nodeModule.js";
import { orderName } from "./channelRules.js";
import { formatHeight } from "../host/heights.js";
import type { PacketView } from "./packetCommitment.js";

/**
 * The 04-channel keeper's packet events of SDK v0.41 (send_packet, recv_packet, write_acknowledgement,
 * acknowledge_packet, timeout_packet), each followed by message{module=ibc_channel}. They share the
 * packet's attributes; which of data, acknowledgement, ordering and connection each carries, and where,
 * is the keeper's.
 */
export type PacketEventType = "send_packet" | "recv_packet" | "write_acknowledgement" | "acknowledge_packet" | "timeout_packet";

const WITH_DATA = new Set<PacketEventType>(["send_packet", "recv_packet", "write_acknowledgement"]);
const WITH_CONNECTION = new Set<PacketEventType>(["send_packet", "recv_packet", "write_acknowledgement", "acknowledge_packet"]);

export function emitPacketEvent(
  ctx: ExecContext,
  type: PacketEventType,
  packet: PacketView,
  channel: { ordering: unknown; connection: string },
  acknowledgement?: Uint8Array,
): void {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const attributes = [
    ...(WITH_DATA.has(type) ? [{ key: "packet_data", value: text(packet.data) }] : []),
    { key: "packet_timeout_height", value: formatHeight(packet.timeoutHeight) },
    { key: "packet_timeout_timestamp", value: packet.timeoutTimestamp.toString() },
    { key: "packet_sequence", value: packet.sequence.toString() },
    { key: "packet_src_port", value: packet.sourcePort },
    { key: "packet_src_channel", value: packet.sourceChannel },
    { key: "packet_dst_port", value: packet.destPort },
    { key: "packet_dst_channel", value: packet.destChannel },
    ...(type === "write_acknowledgement" ? [{ key: "packet_ack", value: text(acknowledgement ?? new Uint8Array()) }] : []),
    ...(type === "write_acknowledgement" ? [] : [{ key: "packet_channel_ordering", value: orderName(channel.ordering) }]),
    ...(WITH_CONNECTION.has(type) ? [{ key: "packet_connection", value: channel.connection }] : []),
  ];
  ctx.emit({ type, attributes });
  ctx.emit({ type: "message", attributes: [{ key: "module", value: "ibc_channel" }] });
}
