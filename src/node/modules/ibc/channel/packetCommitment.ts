import { sha256 } from "@noble/hashes/sha2.js";
import { goJson } from "../../../../codec/amino/aminoJson.js";
import { concatBytes } from "../../../store/keyEncoding.js";
import { utf8 } from "../../../store/moduleStore.js";
import { fieldText } from "../../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { acknowledgementBytes } from "./acknowledgement.js";
import { heightPart, type Height } from "../host/heights.js";
import { uint64Value } from "../host/hostPaths.js";

/** A channeltypes.Packet with its fields read once (sequence and timeout timestamp as bigints). */
export interface PacketView {
  data: Uint8Array;
  sequence: bigint;
  sourcePort: string;
  sourceChannel: string;
  destPort: string;
  destChannel: string;
  timeoutHeight: Height;
  timeoutTimestamp: bigint;
}

/** The packet of a decoded Msg. */
export function packetView(packet: ProtoMessage): PacketView {
  return {
    data: (packet.data as Uint8Array | undefined) ?? new Uint8Array(),
    sequence: heightPart(packet.sequence),
    sourcePort: fieldText(packet.source_port),
    sourceChannel: fieldText(packet.source_channel),
    destPort: fieldText(packet.destination_port),
    destChannel: fieldText(packet.destination_channel),
    timeoutHeight: packet.timeout_height ?? {},
    timeoutTimestamp: heightPart(packet.timeout_timestamp),
  };
}

/** What a packet commitment is computed from. */
export interface CommittedPacket {
  data: Uint8Array;
  timeoutHeight: { revisionNumber: bigint; revisionHeight: bigint };
  timeoutTimestamp: bigint;
}

/** CommitPacket of ICS-04: sha256(timeout timestamp ‖ timeout revision ‖ timeout height ‖ sha256(data)), integers as 8 bytes big-endian. */
export function packetCommitment(packet: CommittedPacket): Uint8Array {
  return sha256(
    concatBytes(
      uint64Value(packet.timeoutTimestamp),
      uint64Value(packet.timeoutHeight.revisionNumber),
      uint64Value(packet.timeoutHeight.revisionHeight),
      sha256(packet.data),
    ),
  );
}

/** CommitPacket of a packet. */
export function commitPacket(packet: PacketView): Uint8Array {
  const { revision_number, revision_height } = packet.timeoutHeight;
  return packetCommitment({
    data: packet.data,
    timeoutHeight: { revisionNumber: heightPart(revision_number), revisionHeight: heightPart(revision_height) },
    timeoutTimestamp: packet.timeoutTimestamp,
  });
}

/** CommitAcknowledgement of ICS-04: sha256 of the acknowledgement bytes. */
export function acknowledgementCommitment(acknowledgement: Uint8Array): Uint8Array {
  return sha256(acknowledgement);
}

/** The bytes of an ICS-20 FungibleTokenPacketData: its proto3 JSON with sorted keys (amount is a uint64, so a string). */
export function fungibleTokenPacketData(data: { denom: string; amount: bigint; sender: string; receiver: string }): Uint8Array {
  return utf8(goJson({ amount: data.amount.toString(), denom: data.denom, receiver: data.receiver, sender: data.sender }, true));
}

/** The bytes of a successful acknowledgement with result [0x01], as ICS-20 writes it: {"result":"AQ=="}. */
export const SUCCESS_ACKNOWLEDGEMENT = acknowledgementBytes({ result: Uint8Array.of(1) });
