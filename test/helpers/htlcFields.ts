/** The fields of POST /htlc/htlcs (the legacy generate route) for an HTLC of `amount` uhub, locked for `timeLock` blocks. */
export function createHtlcFields(sender: string, to: string, hashLock: string, timeLock: number, amount = "7000"): Record<string, unknown> {
  return {
    sender,
    to,
    receiver_on_other_chain: "",
    amount: [{ denom: "uhub", amount }],
    hash_lock: hashLock,
    time_lock: String(timeLock),
    timestamp: "0",
  };
}
