import { sha256 } from "@noble/hashes/sha2.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { utf8 } from "../../store/moduleStore.js";
import type { DevGenesisContext } from "../devGenesisContext.js";

/**
 * Development account i's address. A chain initialised with fewer accounts
 * still gets the extension modules' sample state: beyond the funded accounts,
 * a fixed address derived from the index stands in.
 */
export function devAddress(ctx: DevGenesisContext, i: number): string {
  return ctx.accounts[i]?.address ?? encodeBech32Address(ctx.prefix, sha256(utf8(`dev-account-${i}`)).subarray(0, 20));
}

/** A stand-in transaction hash for state that a transaction would have created. */
export function devTxHash(label: string): Uint8Array {
  return sha256(utf8(label));
}
