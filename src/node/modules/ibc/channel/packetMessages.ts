import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { sdkError } from "../../../abci/txError.js";
import type { ExecContext, MsgRoute } from "../../nodeModule.js";
import { lookupModuleByChannel } from "./capabilities.js";
import { CHANNEL_OPEN, channelStateName, existingChannel, firstHop, openConnectionOf } from "./channelRules.js";
import { getConsensusState } from "../client/store.js";
import { existingConnection, wrapped } from "../connection/messages.js";
import { channelError, clientError } from "../host/coreErrors.js";
import { byteList, unixNanosText } from "../host/goText.js";
import { formatHeight, heightGTE, heightPart, isZeroHeight, selfHeight, type Height } from "../host/heights.js";
import { packetKey } from "../host/hostPaths.js";
import { checkHeight, checkPacket, checkProof, checkSigner, signers } from "../host/msgChecks.js";
import { packetCommitment } from "./packetCommitment.js";
import { verifyProof } from "../commitment/proofVerification.js";
import {
  acknowledgementTarget,
  channelStateTarget,
  counterpartyHops,
  nextSequenceRecvTarget,
  packetCommitmentTarget,
  receiptAbsenceTarget,
} from "../commitment/proofTargets.js";
import { CHANNEL_CLOSED } from "./channelRules.js";
import { packetView } from "./packetCommitment.js";
import { acknowledgePacket, ORDER_ORDERED, receivePacket, timeoutExecuted, writeAcknowledgement } from "./packetState.js";
import { onAcknowledgementPacket, onRecvPacket, onTimeoutPacket } from "../transfer/callbacks.js";

/** The ICS-04 packet Msgs of SDK v0.41 (04-channel types/msgs.go, keeper/packet.go, keeper/timeout.go, core/keeper/msg_server.go). */
export const packetMessages: Record<string, MsgRoute> = {
  "ibc.core.channel.v1.MsgRecvPacket": {
    action: "recv_packet",
    signers,
    validateBasic(msg, chain) {
      checkProof(msg.proof_commitment, "cannot submit an empty proof");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkSigner(msg, chain);
      checkPacket(msg.packet as ProtoMessage);
    },
    async handler(msg, ctx) {
      const packet = msg.packet as ProtoMessage;
      const view = packetView(packet);
      await lookupModuleByChannel(ctx, packet.destination_port, packet.destination_channel);
      const channel = await wrapped("receive packet verification failed", async () => {
        const channel = await openChannel(ctx, packet.destination_port, packet.destination_channel);
        const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
        matches(packet.source_port, counterparty.port_id, "packet source port doesn't match the counterparty's port");
        matches(packet.source_channel, counterparty.channel_id, "packet source channel doesn't match the counterparty's channel");
        const connection = await openConnectionOf(ctx, firstHop(channel));
        const self = selfHeight(ctx);
        const timeoutHeight = (packet.timeout_height ?? {}) as Height;
        if (!isZeroHeight(timeoutHeight) && heightGTE(self, timeoutHeight)) {
          throw channelError("packetTimeout", `block height >= packet timeout height (${formatHeight(self)} >= ${formatHeight(timeoutHeight)})`);
        }
        const timeoutTimestamp = heightPart(packet.timeout_timestamp);
        const blockNanos = BigInt(ctx.time.getTime()) * 1_000_000n;
        if (timeoutTimestamp !== 0n && blockNanos >= timeoutTimestamp) {
          throw channelError(
            "packetTimeout",
            `block timestamp >= packet timeout timestamp (${unixNanosText(blockNanos)} >= ${unixNanosText(timeoutTimestamp)})`,
          );
        }
        await wrapped("couldn't verify counterparty packet commitment", () =>
          verifyProof(ctx, connection, msg.proof_height as Height, msg.proof_commitment as Uint8Array, "packet commitment", packetCommitmentTarget(packet)),
        );
        await receivePacket(ctx, view, channel);
        return channel;
      });
      const ack = await wrapped("receive packet callback failed", () => onRecvPacket(ctx, view, view.data));
      await writeAcknowledgement(ctx, view, channel, ack);
      return {};
    },
  },
  "ibc.core.channel.v1.MsgTimeout": {
    action: "timeout_packet",
    signers,
    validateBasic(msg, chain) {
      checkProof(msg.proof_unreceived, "cannot submit an empty unreceived proof");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkNextSequenceRecv(msg);
      checkSigner(msg, chain);
      checkPacket(msg.packet as ProtoMessage);
    },
    async handler(msg, ctx) {
      const packet = msg.packet as ProtoMessage;
      const view = packetView(packet);
      await lookupModuleByChannel(ctx, packet.source_port, packet.source_channel);
      const channel = await wrapped("timeout packet verification failed", async () => {
        const channel = await openChannel(ctx, packet.source_port, packet.source_channel);
        checkDestination(packet, channel);
        const connection = await existingConnection(ctx, firstHop(channel));
        const proofHeight = msg.proof_height as Height;
        const proofTimestamp = await timestampAtHeight(ctx, connection, proofHeight);
        const timeoutHeight = (packet.timeout_height ?? {}) as Height;
        const timeoutTimestamp = heightPart(packet.timeout_timestamp);
        const heightNotReached = isZeroHeight(timeoutHeight) || !heightGTE(proofHeight, timeoutHeight);
        const timeNotReached = timeoutTimestamp === 0n || proofTimestamp < timeoutTimestamp;
        if (heightNotReached && timeNotReached) throw channelError("packetTimeout", "packet timeout has not been reached for height or timestamp");
        await checkCommitment(ctx, packet, "packet commitment bytes are not equal", "stored first");
        await verifyReceiptAbsence(ctx, msg, channel, connection, "packet already received, next sequence receive > packet sequence (%d > %d)");
        return channel;
      });
      await wrapped("timeout packet callback failed", () => onTimeoutPacket(ctx, view, view.data));
      timeoutExecuted(ctx, view, channel);
      return {};
    },
  },
  "ibc.core.channel.v1.MsgTimeoutOnClose": {
    action: "timeout_on_close_packet",
    signers,
    validateBasic(msg, chain) {
      checkNextSequenceRecv(msg);
      checkProof(msg.proof_unreceived, "cannot submit an empty proof");
      checkProof(msg.proof_close, "cannot submit an empty proof of closed counterparty channel end");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      checkSigner(msg, chain);
      checkPacket(msg.packet as ProtoMessage);
    },
    async handler(msg, ctx) {
      const packet = msg.packet as ProtoMessage;
      const view = packetView(packet);
      await lookupModuleByChannel(ctx, packet.source_port, packet.source_channel);
      const channel = await wrapped("timeout on close packet verification failed", async () => {
        const channel = await existingChannel(ctx, fieldText(packet.source_port), fieldText(packet.source_channel));
        checkDestination(packet, channel);
        const connection = await existingConnection(ctx, firstHop(channel));
        await checkCommitment(ctx, packet, "packet commitment bytes are not equal", "stored first");
        const expected = channelStateTarget(
          ctx,
          { port: fieldText(packet.destination_port), channel: fieldText(packet.destination_channel) },
          {
            state: CHANNEL_CLOSED,
            ordering: channel.ordering,
            counterpartyPort: fieldText(packet.source_port),
            counterpartyChannel: fieldText(packet.source_channel),
            hops: counterpartyHops(connection),
            version: fieldText(channel.version),
          },
        );
        await verifyProof(ctx, connection, msg.proof_height as Height, msg.proof_close as Uint8Array, "channel state", expected);
        // (Go's text lacks the closing parenthesis here)
        await verifyReceiptAbsence(ctx, msg, channel, connection, "packet already received, next sequence receive > packet sequence (%d > %d");
        return channel;
      });
      await wrapped("timeout packet callback failed", () => onTimeoutPacket(ctx, view, view.data));
      timeoutExecuted(ctx, view, channel);
      return {};
    },
  },
  "ibc.core.channel.v1.MsgAcknowledgement": {
    action: "acknowledge_packet",
    signers,
    validateBasic(msg, chain) {
      checkProof(msg.proof_acked, "cannot submit an empty proof");
      checkHeight(msg.proof_height, "proof height must be non-zero");
      if (((msg.acknowledgement as Uint8Array | undefined)?.length ?? 0) === 0) throw channelError("invalidAcknowledgement", "ack bytes cannot be empty");
      checkSigner(msg, chain);
      checkPacket(msg.packet as ProtoMessage);
    },
    async handler(msg, ctx) {
      const packet = msg.packet as ProtoMessage;
      const view = packetView(packet);
      await lookupModuleByChannel(ctx, packet.source_port, packet.source_channel);
      await wrapped("acknowledge packet verification failed", async () => {
        const channel = await openChannel(ctx, packet.source_port, packet.source_channel);
        checkDestination(packet, channel);
        const connection = await openConnectionOf(ctx, firstHop(channel));
        await checkCommitment(ctx, packet, "commitment bytes are not equal", "computed first");
        const target = acknowledgementTarget(packet, msg.acknowledgement as Uint8Array);
        await wrapped("packet acknowledgement verification failed", () =>
          verifyProof(ctx, connection, msg.proof_height as Height, msg.proof_acked as Uint8Array, "packet acknowledgement", target),
        );
        await acknowledgePacket(ctx, view, channel);
      });
      await wrapped("acknowledge packet callback failed", () => onAcknowledgementPacket(ctx, view, view.data, msg.acknowledgement as Uint8Array));
      return {};
    },
  },
};

function checkNextSequenceRecv(msg: ProtoMessage): void {
  if (heightPart(msg.next_sequence_recv) === 0n) throw sdkError("invalidSequence", "next sequence receive cannot be 0");
}

async function openChannel(ctx: ExecContext, port: unknown, channelId: unknown): Promise<ProtoMessage> {
  const channel = await existingChannel(ctx, fieldText(port), fieldText(channelId));
  if (Number(channel.state ?? 0) !== CHANNEL_OPEN)
    throw channelError("invalidChannelState", `channel state is not OPEN (got ${channelStateName(channel.state)})`);
  return channel;
}

function matches(packetValue: unknown, channelValue: unknown, text: string): void {
  if (fieldText(packetValue) !== fieldText(channelValue))
    throw channelError("invalidPacket", `${text} (${fieldText(packetValue)} ≠ ${fieldText(channelValue)})`);
}

function checkDestination(packet: ProtoMessage, channel: ProtoMessage): void {
  const counterparty = (channel.counterparty ?? {}) as ProtoMessage;
  matches(packet.destination_port, counterparty.port_id, "packet destination port doesn't match the counterparty's port");
  matches(packet.destination_channel, counterparty.channel_id, "packet destination channel doesn't match the counterparty's channel");
}

/** The stored commitment of the packet against CommitPacket of the packet given (the two keepers print them in opposite orders). */
async function checkCommitment(ctx: ExecContext, packet: ProtoMessage, text: string, order: "stored first" | "computed first"): Promise<void> {
  const stored = await ctx
    .storeOf("ibc")
    .get(packetKey("commitments", fieldText(packet.source_port), fieldText(packet.source_channel), heightPart(packet.sequence)));
  const timeout = (packet.timeout_height ?? {}) as Height;
  const computed = packetCommitment({
    data: (packet.data as Uint8Array | undefined) ?? new Uint8Array(),
    timeoutHeight: { revisionNumber: heightPart(timeout.revision_number), revisionHeight: heightPart(timeout.revision_height) },
    timeoutTimestamp: heightPart(packet.timeout_timestamp),
  });
  if (stored && Buffer.from(stored).equals(Buffer.from(computed))) return;
  const [first, second] = order === "stored first" ? [stored, computed] : [computed, stored];
  throw channelError("invalidPacket", `${text}: got (${byteList(first)}), expected (${byteList(second)})`);
}

/** ConnectionKeeper.GetTimestampAtHeight: the consensus state's time at that height, in nanoseconds. */
async function timestampAtHeight(ctx: ExecContext, connection: ProtoMessage, height: Height): Promise<bigint> {
  const clientId = fieldText(connection.client_id);
  const any = await getConsensusState(ctx.storeOf("ibc"), clientId, height, ctx);
  if (!any) throw clientError("consensusStateNotFound", `clientID (${clientId}), height (${formatHeight(height)})`);
  const state = ctx.codec.type(fieldText(any.type_url).slice(1)).decode(any.value as Uint8Array) as unknown as ProtoMessage;
  const timestamp = state.timestamp as ProtoMessage | bigint | undefined;
  if (typeof timestamp === "object" && timestamp !== null) {
    return heightPart(timestamp.seconds) * 1_000_000_000n + heightPart(timestamp.nanos);
  }
  return heightPart(timestamp);
}

/** The timeouts' last step: on an ORDERED channel the next receive sequence (`received` is the keeper's text for a packet already received), else the receipt's absence. */
function verifyReceiptAbsence(ctx: ExecContext, msg: ProtoMessage, channel: ProtoMessage, connection: ProtoMessage, received: string) {
  const packet = msg.packet as ProtoMessage;
  const proof = msg.proof_unreceived as Uint8Array;
  if (Number(channel.ordering ?? 0) === ORDER_ORDERED) {
    const next = heightPart(msg.next_sequence_recv);
    const sequence = heightPart(packet.sequence);
    if (next > sequence) throw channelError("invalidPacket", received.replace("%d", String(next)).replace("%d", String(sequence)));
    return verifyProof(ctx, connection, msg.proof_height as Height, proof, "next sequence receive", nextSequenceRecvTarget(packet, next));
  }
  return verifyProof(ctx, connection, msg.proof_height as Height, proof, "packet receipt absence", receiptAbsenceTarget(packet));
}
