import { errorTable } from "../shared/errorTable.js";

/** Registered errors of the ICS-20 transfer module (codespace "transfer"), SDK v0.41 x/ibc/applications/transfer/types/errors.go. */
export const transferError = errorTable("transfer", {
  invalidPacketTimeout: [2, "invalid packet timeout"],
  invalidDenomForTransfer: [3, "invalid denomination for cross-chain transfer"],
  invalidVersion: [4, "invalid ICS20 version"],
  invalidAmount: [5, "invalid token amount"],
  traceNotFound: [6, "denomination trace not found"],
  sendDisabled: [7, "fungible token transfers from this chain are disabled"],
  receiveDisabled: [8, "fungible token transfers to this chain are disabled"],
});

/** Registered errors of ICS-04 channels (codespace "channel"), SDK v0.41 x/ibc/core/04-channel/types/errors.go. */
export const channelError = errorTable("channel", {
  channelNotFound: [3, "channel not found"],
  invalidChannelState: [5, "invalid channel state"],
  sequenceSendNotFound: [10, "sequence send not found"],
  invalidPacket: [13, "invalid packet"],
  packetTimeout: [14, "packet timeout"],
});

/** Registered errors of ICS-03 connections and ICS-02 clients (codespaces "connection", "client"). */
export const connectionError = errorTable("connection", { connectionNotFound: [3, "connection not found"] });
export const clientError = errorTable("client", {
  clientFrozen: [5, "light client is frozen due to misbehaviour"],
  consensusStateNotFound: [7, "consensus state not found"],
});

/** The host's identifier validation error (codespace "host"). */
export const hostError = errorTable("host", { invalidID: [2, "invalid identifier"] });
