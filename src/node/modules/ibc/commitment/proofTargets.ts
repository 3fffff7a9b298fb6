import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import type { ExecContext } from "../../nodeModule.js";
import { heightPart, type Height } from "../host/heights.js";
import { channelKey, clientStateKey, connectionKey, consensusStateKey, keyText, nextSequenceKey, packetKey, uint64Value } from "../host/hostPaths.js";
import { acknowledgementCommitment, packetCommitment } from "../channel/packetCommitment.js";
import type { ProofTarget } from "./proofVerification.js";

/**
 * What the counterparty must have stored for each verification of the 04-channel and 03-connection
 * keepers of SDK v0.41: the host path on the counterparty and the expected bytes (the channel or
 * connection end it must hold, a packet or acknowledgement commitment, a sequence), or an absence.
 */

/** The channel end the counterparty holds under ports/{port}/channels/{channel}, expected in `state`. */
export function channelStateTarget(
  ctx: ExecContext,
  at: { port: string; channel: string },
  expected: { state: number; ordering: unknown; counterpartyPort: string; counterpartyChannel: string; hops: string[]; version: string },
): ProofTarget {
  const channel = {
    state: expected.state,
    ordering: Number(expected.ordering ?? 0),
    counterparty: { port_id: expected.counterpartyPort, channel_id: expected.counterpartyChannel },
    connection_hops: expected.hops,
    version: expected.version,
  };
  return { path: keyText(channelKey(at.port, at.channel)), value: ctx.codec.type("ibc.core.channel.v1.Channel").encode(channel).finish() };
}

/** CounterpartyHops: the counterparty's connection id for this channel's (single) connection. */
export const counterpartyHops = (connection: ProtoMessage) => [fieldText(((connection.counterparty ?? {}) as ProtoMessage).connection_id)];

/** The connection end the counterparty holds under connections/{id} (ConnOpenConfirm expects it OPEN). */
export function connectionStateTarget(ctx: ExecContext, connectionId: string, connection: ProtoMessage, state: number, ownPrefix: Uint8Array): ProofTarget {
  const counterparty = (connection.counterparty ?? {}) as ProtoMessage;
  const expected = {
    client_id: fieldText(counterparty.client_id),
    versions: connection.versions ?? [],
    state,
    counterparty: { client_id: fieldText(connection.client_id), connection_id: connectionId, prefix: { key_prefix: ownPrefix } },
    delay_period: connection.delay_period ?? 0,
  };
  return {
    path: keyText(connectionKey(fieldText(counterparty.connection_id))),
    value: ctx.codec.type("ibc.core.connection.v1.ConnectionEnd").encode(expected).finish(),
  };
}

/** The counterparty's client of this chain (VerifyClientState): the client state as MarshalInterface encodes it, an Any. */
export function clientStateTarget(connection: ProtoMessage, clientStateAny: Uint8Array): ProofTarget {
  const counterpartyClient = fieldText(((connection.counterparty ?? {}) as ProtoMessage).client_id);
  return {
    path: keyText(clientStateKey(counterpartyClient)),
    value: clientStateAny,
    wrap: `failed client state verification for target client: ${fieldText(connection.client_id)}`,
  };
}

/** The counterparty's consensus state of this chain at `height` (VerifyClientConsensusState), an Any. */
export function consensusStateTarget(connection: ProtoMessage, height: Height, consensusStateAny: Uint8Array): ProofTarget {
  const counterpartyClient = fieldText(((connection.counterparty ?? {}) as ProtoMessage).client_id);
  return { path: keyText(consensusStateKey(counterpartyClient, height)), value: consensusStateAny };
}

/** The packet's commitment on its source chain (RecvPacket). */
export function packetCommitmentTarget(packet: ProtoMessage): ProofTarget {
  const timeout = (packet.timeout_height ?? {}) as Height;
  const value = packetCommitment({
    data: (packet.data as Uint8Array | undefined) ?? new Uint8Array(),
    timeoutHeight: { revisionNumber: heightPart(timeout.revision_number), revisionHeight: heightPart(timeout.revision_height) },
    timeoutTimestamp: heightPart(packet.timeout_timestamp),
  });
  return {
    path: keyText(packetKey("commitments", fieldText(packet.source_port), fieldText(packet.source_channel), heightPart(packet.sequence))),
    value,
    delayed: true,
  };
}

/** The acknowledgement's commitment on the packet's destination chain (Acknowledgement). */
export function acknowledgementTarget(packet: ProtoMessage, acknowledgement: Uint8Array): ProofTarget {
  const path = keyText(packetKey("acks", fieldText(packet.destination_port), fieldText(packet.destination_channel), heightPart(packet.sequence)));
  return { path, value: acknowledgementCommitment(acknowledgement), delayed: true };
}

/** No receipt of the packet on its destination chain (Timeout on an UNORDERED channel). */
export function receiptAbsenceTarget(packet: ProtoMessage): ProofTarget {
  const path = keyText(packetKey("receipts", fieldText(packet.destination_port), fieldText(packet.destination_channel), heightPart(packet.sequence)));
  return { path, delayed: true };
}

/** The destination's next receive sequence (Timeout on an ORDERED channel). */
export function nextSequenceRecvTarget(packet: ProtoMessage, nextSequenceRecv: bigint): ProofTarget {
  const path = keyText(nextSequenceKey("nextSequenceRecv", fieldText(packet.destination_port), fieldText(packet.destination_channel)));
  return { path, value: uint64Value(nextSequenceRecv), delayed: true };
}
