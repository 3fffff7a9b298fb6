import type { ExecContext } from "../nodeModule.js";
import { entriesUnder } from "../shared/exportReads.js";
import { decodeStringValue } from "../../store/wrapperValues.js";
import { PAUSED, RUNNING } from "../service/store.js";
import { getFeed, moveState } from "./feeds.js";
import { feedStatePrefix } from "./keys.js";

/**
 * irismod v1.3.1 oracle.PrepForZeroHeightGenesis (Keeper.ResetFeedEntryState): every running feed
 * moves to the paused index. (Its request context is paused by the service module's step.)
 */
export async function oraclePrepForZeroHeight(ctx: ExecContext): Promise<void> {
  for (const [, value] of await entriesUnder(ctx.store, feedStatePrefix(RUNNING))) {
    const name = decodeStringValue(value);
    if (await getFeed(ctx, name)) moveState(ctx, name, RUNNING, PAUSED);
  }
}
