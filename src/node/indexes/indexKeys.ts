import { concatBytes } from "../store/keyEncoding.js";
import { utf8 } from "../store/moduleStore.js";

/**
 * The derived indexes' store: keys under "~index/" in the versioned state, so
 * that each height has its own (read at a kept earlier height as the state is,
 * pruned and reverted with it), but never part of the app hash (written into
 * the commit batch after the hash is made, by no module) nor of any module's
 * store (raw /store queries, export and forks read module stores only).
 */
export const INDEX_STORE = "~index";

/**
 * Present at a height whose indexes were built from the whole state, holding
 * their format: a home whose mark is missing or older has them built again at
 * start (indexRebuild.ts). Format 2 added holders by amount.
 */
export const COMPLETE_KEY = Uint8Array.of(0x00);
export const COMPLETE_VALUE = Uint8Array.of(2);
/** A present-marker value: the index entry's key says everything. */
export const PRESENT = Uint8Array.of(1);

const DELEGATIONS_BY_VALIDATOR = Uint8Array.of(0x01);
const HOLDERS_BY_DENOM = Uint8Array.of(0x02);
const ADDRESS_BY_NUMBER = Uint8Array.of(0x03);
const HOLDERS_BY_AMOUNT = Uint8Array.of(0x04);
/** sdk.Int is at most 256 bits: its bytes, inverted so that key order is largest first. */
const AMOUNT_BYTES = 32;

/** validator ‖ delegator → PRESENT */
export const delegationByValidatorKey = (validator: Uint8Array, delegator: Uint8Array) => concatBytes(DELEGATIONS_BY_VALIDATOR, validator, delegator);
export const delegationsByValidatorPrefix = (validator: Uint8Array) => concatBytes(DELEGATIONS_BY_VALIDATOR, validator);

/** length of denom (1 byte) ‖ denom ‖ holder → PRESENT: a denom's holders in address order. */
export const holdersPrefix = (denom: string) => {
  const bytes = utf8(denom);
  return concatBytes(HOLDERS_BY_DENOM, Uint8Array.of(bytes.length), bytes);
};
export const holderKey = (denom: string, holder: Uint8Array) => concatBytes(holdersPrefix(denom), holder);

/** account number (8 bytes, big-endian) → address */
export const addressByNumberKey = (number: bigint) => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt.asUintN(64, number));
  return concatBytes(ADDRESS_BY_NUMBER, bytes);
};

/** length of denom (1 byte) ‖ denom ‖ inverted amount (32 bytes) ‖ holder → PRESENT: a denom's holders, largest first. */
export const holdersByAmountPrefix = (denom: string) => {
  const bytes = utf8(denom);
  return concatBytes(HOLDERS_BY_AMOUNT, Uint8Array.of(bytes.length), bytes);
};
export const holderByAmountKey = (denom: string, amount: bigint, holder: Uint8Array) =>
  concatBytes(holdersByAmountPrefix(denom), invertedAmount(amount), holder);

function invertedAmount(amount: bigint): Uint8Array {
  const out = new Uint8Array(AMOUNT_BYTES);
  let rest = BigInt.asUintN(8 * AMOUNT_BYTES, ~amount);
  for (let i = AMOUNT_BYTES - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

/** A by-amount entry's key under its denom's prefix → the amount and the holder. */
export function splitByAmount(relative: Uint8Array): { amount: bigint; holder: Uint8Array } {
  let inverted = 0n;
  for (let i = 0; i < AMOUNT_BYTES; i++) inverted = (inverted << 8n) | BigInt(relative[i]!);
  return { amount: BigInt.asUintN(8 * AMOUNT_BYTES, ~inverted), holder: relative.subarray(AMOUNT_BYTES) };
}
