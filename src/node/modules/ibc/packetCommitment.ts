import { sha256 } from "@noble/hashes/sha2.js";
import { goJson } from "../../../codec/amino/aminoJson.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { uint64Value } from "./hostPaths.js";

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

/** CommitAcknowledgement of ICS-04: sha256 of the acknowledgement bytes. */
export function acknowledgementCommitment(acknowledgement: Uint8Array): Uint8Array {
  return sha256(acknowledgement);
}

/** The bytes of an ICS-20 FungibleTokenPacketData: its proto3 JSON with sorted keys (amount is a uint64, so a string). */
export function fungibleTokenPacketData(data: { denom: string; amount: bigint; sender: string; receiver: string }): Uint8Array {
  return utf8(goJson({ amount: data.amount.toString(), denom: data.denom, receiver: data.receiver, sender: data.sender }, true));
}

/** The bytes of a successful acknowledgement with result [0x01], as ICS-20 writes it: {"result":"AQ=="}. */
export const SUCCESS_ACKNOWLEDGEMENT = utf8(goJson({ result: Buffer.from([1]).toString("base64") }));
