import { concatBytes } from "../../store/keyEncoding.js";

/** Store layout: 0x00 | evidence hash → Any of the evidence. */
export const EVIDENCE_PREFIX = Uint8Array.of(0x00);
export const evidenceKey = (hash: Uint8Array) => concatBytes(EVIDENCE_PREFIX, hash);
