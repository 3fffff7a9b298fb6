import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { sdkError, type TxError } from "../../../abci/txError.js";
import type { ExecContext } from "../../nodeModule.js";
import { CHANNEL_CLOSED, firstHop } from "./channelRules.js";
import { channelError } from "../host/coreErrors.js";
import { channelKey, nextSequenceKey, packetKey, readUint64, uint64Value, type SequenceKind } from "../host/hostPaths.js";
import { acknowledgementCommitment, type PacketView } from "./packetCommitment.js";
import { emitPacketEvent } from "./packetEvents.js";

/**
 * The 04-channel keeper's state writes after a packet Msg's proof verified (SDK v0.41 keeper/packet.go
 * and timeout.go): the receipt or the next receive sequence, the acknowledgement commitment, the next
 * acknowledgement sequence and the packet commitment's deletion, an ORDERED channel's closing on timeout.
 */
const ORDER_UNORDERED = 1;
export const ORDER_ORDERED = 2;

const channelOf = (channel: ProtoMessage) => ({ ordering: channel.ordering, connection: firstHop(channel) });

/** An ORDERED channel's next receive or ack sequence: stored, equal to the packet's, then advanced by one. */
async function advanceSequence(
  ctx: ExecContext,
  at: { kind: SequenceKind; port: string; channelId: string; sequence: bigint },
  errors: { missing: () => TxError; mismatch: (next: bigint) => TxError },
): Promise<void> {
  const key = nextSequenceKey(at.kind, at.port, at.channelId);
  const bytes = await ctx.storeOf("ibc").get(key);
  if (!bytes) throw errors.missing();
  const next = readUint64(bytes);
  if (at.sequence !== next) throw errors.mismatch(next);
  ctx.storeOf("ibc").set(key, uint64Value(next + 1n));
}

/** RecvPacket after its proof: an UNORDERED channel writes the receipt (once), an ORDERED one advances its next receive sequence. */
export async function receivePacket(ctx: ExecContext, packet: PacketView, channel: ProtoMessage): Promise<void> {
  const ibc = ctx.storeOf("ibc");
  const { destPort: port, destChannel: channelId, sequence } = packet;
  if (Number(channel.ordering ?? 0) === ORDER_ORDERED) {
    await advanceSequence(
      ctx,
      { kind: "nextSequenceRecv", port, channelId, sequence },
      {
        missing: () => channelError("sequenceReceiveNotFound", `destination port: ${port}, destination channel: ${channelId}`),
        mismatch: (next) => channelError("invalidPacket", `packet sequence ≠ next receive sequence (${sequence} ≠ ${next})`),
      },
    );
  } else if (Number(channel.ordering ?? 0) === ORDER_UNORDERED) {
    if (await ibc.get(packetKey("receipts", port, channelId, sequence))) {
      throw channelError("invalidPacket", `packet sequence (${sequence}) already has been received`);
    }
    ibc.set(packetKey("receipts", port, channelId, sequence), Uint8Array.of(1));
  }
  emitPacketEvent(ctx, "recv_packet", packet, channelOf(channel));
}

/** WriteAcknowledgement: the acknowledgement's commitment under the packet's destination (once). */
export async function writeAcknowledgement(ctx: ExecContext, packet: PacketView, channel: ProtoMessage, acknowledgement: Uint8Array): Promise<void> {
  const ibc = ctx.storeOf("ibc");
  const key = packetKey("acks", packet.destPort, packet.destChannel, packet.sequence);
  if (await ibc.get(key)) throw channelError("acknowledgementExists");
  if (acknowledgement.length === 0) throw channelError("invalidAcknowledgement", "acknowledgement cannot be empty");
  ibc.set(key, acknowledgementCommitment(acknowledgement));
  emitPacketEvent(ctx, "write_acknowledgement", packet, channelOf(channel), acknowledgement);
}

/** AcknowledgePacket after its proof: an ORDERED channel's acknowledgements come in order; the commitment is deleted. */
export async function acknowledgePacket(ctx: ExecContext, packet: PacketView, channel: ProtoMessage): Promise<void> {
  const ibc = ctx.storeOf("ibc");
  const { sourcePort: port, sourceChannel: channelId, sequence } = packet;
  if (Number(channel.ordering ?? 0) === ORDER_ORDERED) {
    await advanceSequence(
      ctx,
      { kind: "nextSequenceAck", port, channelId, sequence },
      {
        missing: () => channelError("sequenceAckNotFound", `source port: ${port}, source channel: ${channelId}`),
        mismatch: (next) => sdkError("invalidSequence", `packet sequence ≠ next ack sequence (${sequence} ≠ ${next})`),
      },
    );
  }
  ibc.delete(packetKey("commitments", port, channelId, sequence));
  emitPacketEvent(ctx, "acknowledge_packet", packet, channelOf(channel));
}

/** TimeoutExecuted: the commitment is deleted and an ORDERED channel is CLOSED. */
export function timeoutExecuted(ctx: ExecContext, packet: PacketView, channel: ProtoMessage): void {
  const ibc = ctx.storeOf("ibc");
  ibc.delete(packetKey("commitments", packet.sourcePort, packet.sourceChannel, packet.sequence));
  if (Number(channel.ordering ?? 0) === ORDER_ORDERED) {
    const closed = { ...channel, state: CHANNEL_CLOSED };
    ibc.set(channelKey(packet.sourcePort, packet.sourceChannel), ctx.codec.type("ibc.core.channel.v1.Channel").encode(closed).finish());
  }
  emitPacketEvent(ctx, "timeout_packet", packet, channelOf(channel));
}
