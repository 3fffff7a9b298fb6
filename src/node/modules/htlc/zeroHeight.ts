import { fieldText } from "../../../codec/fieldText.js";
import { concatBytes } from "../../store/keyEncoding.js";
import type { ExecContext } from "../nodeModule.js";
import { decodedUnder } from "../shared/exportReads.js";
import { EXPIRED, HTLC_PREFIX, HTLC_TYPE, OPEN } from "./keys.js";
import { refundHtlc } from "./messages.js";

/**
 * irismod v1.3.1 htlc.PrepForZeroHeightGenesis: an open HTLC's expiration height made relative to
 * the exported height (the new chain starts again at 1); an expired one refunded to its sender.
 * (The expiration queue is left as it is, as the real keeper leaves it; the export does not carry it.)
 */
export async function htlcPrepForZeroHeight(ctx: ExecContext): Promise<void> {
  const htlcType = ctx.codec.type(HTLC_TYPE);
  for (const [hashLock, htlc] of await decodedUnder(ctx.store, HTLC_PREFIX, ctx, HTLC_TYPE)) {
    const state = Number(htlc.state ?? OPEN);
    if (state === OPEN) {
      const expiration = BigInt(fieldText(htlc.expiration_height, "0")) - BigInt(ctx.height) + 1n;
      ctx.store.set(concatBytes(HTLC_PREFIX, hashLock), htlcType.encode({ ...htlc, expiration_height: BigInt.asUintN(64, expiration).toString() }).finish());
    } else if (state === EXPIRED) {
      await refundHtlc(ctx, hashLock, htlc);
    }
  }
}
