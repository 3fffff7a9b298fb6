import type { Codec } from "../../codec/codec.js";
import type { ImportProgress } from "../genesisProgress.js";
import { concatBytes } from "../store/keyEncoding.js";
import { modulePrefix } from "../store/moduleStore.js";
import type { StateReader } from "../store/versionedStore.js";
import { ACCOUNT_PREFIX } from "../modules/auth/keeper.js";
import { BALANCES_PREFIX } from "../modules/bank/keys.js";
import { DELEGATION_PREFIX } from "../modules/staking/keys.js";
import { COMPLETE_KEY, COMPLETE_VALUE, INDEX_STORE } from "./indexKeys.js";
import { markIndexesComplete, putIndexWrites, type StateWrite } from "./indexWrites.js";

/** The state the indexes are derived from: delegations, balances, accounts. */
const SOURCES = [
  concatBytes(modulePrefix("staking"), DELEGATION_PREFIX),
  concatBytes(modulePrefix("bank"), BALANCES_PREFIX),
  concatBytes(modulePrefix("auth"), ACCOUNT_PREFIX),
];
const INDEX = modulePrefix(INDEX_STORE);

/** Whether the height `reader` reads has indexes built from its whole state, in this code's format. */
export async function indexesComplete(reader: StateReader): Promise<boolean> {
  const mark = await reader.get(concatBytes(INDEX, COMPLETE_KEY));
  return mark !== undefined && mark.length === COMPLETE_VALUE.length && mark.every((b, i) => b === COMPLETE_VALUE[i]);
}

/**
 * The writes that give a height without complete indexes (a home made before
 * them, or with an older format) the indexes of its whole state: every
 * existing index entry deleted, the entries of every delegation, balance and
 * account, and the complete mark. They go into the next block's commit batch,
 * so a block is written with them or not at all: a stop before that block
 * leaves the home as it was, and the next start builds them again.
 */
export async function indexRebuildWrites(reader: StateReader, codec: Codec, progress?: ImportProgress): Promise<StateWrite[]> {
  const out: StateWrite[] = [];
  const target = { set: (key: Uint8Array, value: Uint8Array) => out.push({ key, value }), delete: (key: Uint8Array) => out.push({ key, value: undefined }) };
  for await (const [key] of reader.iterate(INDEX)) out.push({ key, value: undefined });
  progress?.begin("building the derived indexes from the latest state (delegations by validator; holders by denom; account numbers)", "keys");
  for (const prefix of SOURCES) {
    const entries: StateWrite[] = [];
    for await (const [key, value] of reader.iterate(prefix)) {
      entries.push({ key, value });
      progress?.advance();
    }
    putIndexWrites(target, entries, codec);
  }
  markIndexesComplete(target);
  progress?.end();
  return out;
}
