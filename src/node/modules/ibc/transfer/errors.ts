import { errorTable } from "../../shared/errorTable.js";

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
