import type { KVReader } from "../store/kv.js";
import { concatBytes } from "../store/keyEncoding.js";
import { modulePrefix } from "../store/moduleStore.js";
import type { VersionedStore } from "../store/versionedStore.js";
import type { QueryContext } from "../modules/nodeModule.js";
import { COMPLETE_KEY, COMPLETE_VALUE, INDEX_STORE } from "./indexKeys.js";
import { processLogger } from "../../telemetry/processLogger.js";

/**
 * The derived indexes at the queried height, or undefined when that height
 * has none complete (a home made before them, a fork of a remote chain, whose
 * state is mostly the remote's): the query then scans, as v0.41 does.
 */
export async function indexesAt(ctx: Pick<QueryContext, "storeOf">): Promise<KVReader | undefined> {
  const index = ctx.storeOf(INDEX_STORE);
  const mark = await index.get(COMPLETE_KEY);
  // an older format's indexes lack entries this code reads: as none
  return mark?.length === COMPLETE_VALUE.length && mark[0] === COMPLETE_VALUE[0] ? index : undefined;
}

/** Says at start when the latest height has no complete indexes: the routes that read them scan instead. */
export async function warnIfNoIndexes(store: VersionedStore, fork: boolean): Promise<void> {
  if (store.latestVersion === 0 || (await store.reader().get(concatBytes(modulePrefix(INDEX_STORE), COMPLETE_KEY)))) return;
  if (!fork) return; // a home made before them has them built at start (indexRebuild.ts)
  processLogger().warn(
    `[node] no derived indexes at height ${store.latestVersion} (a fork reads most of its state from the remote chain): a validator's delegations are answered by scanning every delegation, denom owners and accounts by number are not answered`,
  );
}
