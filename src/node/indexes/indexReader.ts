import type { KVReader } from "../store/kv.js";
import type { QueryContext } from "../modules/nodeModule.js";
import { COMPLETE_KEY, INDEX_STORE } from "./indexKeys.js";

/**
 * The derived indexes at the queried height, or undefined when that height
 * has none complete (a home made before them, a fork of a remote chain, whose
 * state is mostly the remote's): the query then scans, as v0.41 does.
 */
export async function indexesAt(ctx: Pick<QueryContext, "storeOf">): Promise<KVReader | undefined> {
  const index = ctx.storeOf(INDEX_STORE);
  return (await index.get(COMPLETE_KEY)) ? index : undefined;
}
