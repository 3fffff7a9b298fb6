import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";

/**
 * Store layout of x/upgrade (SDK v0.41 keys):
 *   0x00 → the scheduled Plan;
 *   0x01 | name → the height the named upgrade was applied at (uint64 big-endian);
 *   "upgradedIBCState/{height}/upgradedClient" → Any of the client state of the next chain version;
 *   "upgradedIBCState/{height}/upgradedConsState" → Any of its consensus state.
 * Nothing is written at genesis: a plan comes from a software-upgrade proposal.
 */
export const PLAN_KEY = Uint8Array.of(0x00);
const DONE_PREFIX = Uint8Array.of(0x01);

export const doneKey = (name: string) => concatBytes(DONE_PREFIX, utf8(name));
export const upgradedClientKey = (height: bigint | number) => utf8(`upgradedIBCState/${height}/upgradedClient`);
export const upgradedConsStateKey = (height: bigint | number) => utf8(`upgradedIBCState/${height}/upgradedConsState`);
