import { concatBytes } from "../../store/keyEncoding.js";
import type { ExecContext } from "../nodeModule.js";
import { entriesUnder } from "../shared/exportReads.js";
import { QUEUE_PREFIX, queueHeightPrefix } from "./keys.js";

const HEIGHT_BYTES = 8;

/**
 * irismod v1.3.1 random.PrepForZeroHeightGenesis: every pending request moves in the queue from its
 * generation height h to h - exported height + 1, the height the new chain (starting at 1) reaches
 * after as many blocks as were left.
 */
export async function randomPrepForZeroHeight(ctx: ExecContext): Promise<void> {
  const pending = await entriesUnder(ctx.store, QUEUE_PREFIX);
  for (const [key] of pending) ctx.store.delete(concatBytes(QUEUE_PREFIX, key));
  for (const [key, request] of pending) {
    const height = new DataView(key.buffer, key.byteOffset, HEIGHT_BYTES).getBigUint64(0);
    ctx.store.set(concatBytes(queueHeightPrefix(height - BigInt(ctx.height) + 1n), key.subarray(HEIGHT_BYTES)), request);
  }
}
