import { errorTable } from "../shared/errorTable.js";

/** The registered errors of the htlc module (codespace "htlc"), irismod v1.3.1 types/errors.go. */
export const htlcError = errorTable("htlc", {
  invalidHashLock: [2, "invalid hash lock"],
  invalidTimeLock: [3, "invalid time lock"],
  invalidSecret: [4, "invalid secret"],
  htlcExists: [5, "htlc already exists"],
  unknownHtlc: [6, "unknown htlc"],
  htlcNotOpen: [7, "htlc not open"],
  htlcNotExpired: [8, "htlc not expired"],
});
