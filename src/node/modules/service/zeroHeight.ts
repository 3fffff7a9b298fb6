import { encodeBech32Address } from "../../../codec/bech32.js";
import { decodeBytesValue } from "../../store/wrapperValues.js";
import { coinsFromProto, sendCoins } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { decodedUnder, entriesUnder } from "../shared/exportReads.js";
import { decodeHex } from "../shared/hexBytes.js";
import { moduleAccount, REQUEST_ACCOUNT } from "./fees.js";
import { BATCH_COMPLETED, getCompactRequest, getContext, PAUSED, setContext } from "./store.js";

const ACTIVE_REQUESTS_BY_ID = Uint8Array.of(0x15);
const EARNED_FEES = Uint8Array.of(0x18);
const REQUEST_CONTEXTS = Uint8Array.of(0x08);

/**
 * irismod v1.3.1 service.PrepForZeroHeightGenesis, its three steps in order:
 * RefundServiceFees (every active request's fee back to its consumer), RefundEarnedFees and
 * ResetRequestContextsStateAndBatch (every request context PAUSED, its batch COMPLETED with no
 * requests or responses). The records themselves stay, as the real keeper leaves them.
 */
export async function servicePrepForZeroHeight(ctx: ExecContext): Promise<void> {
  const requestAccount = moduleAccount(ctx, REQUEST_ACCOUNT);
  for (const [, value] of await entriesUnder(ctx.store, ACTIVE_REQUESTS_BY_ID)) {
    const request = await getCompactRequest(ctx, decodeBytesValue(value));
    const context = request && (await getContext(ctx, decodeHex(request.request_context_id) ?? new Uint8Array()));
    // GetRequest finds nothing → an empty consumer, which AccAddressFromBech32 refuses
    if (!request || !context)
      throw new Error("failed to refund the service fees: invalid consumer address (empty address string is not allowed): invalid address");
    await sendCoins(ctx, requestAccount, context.consumer, request.service_fee);
  }
  // The real keeper pays to iterator.Key()[1:], the key after the prefix: the provider's address
  // bytes followed by the denom's, an account nobody holds the key of. Kept as it is.
  for (const [key, coin] of await decodedUnder(ctx.store, EARNED_FEES, ctx, "core.base.v1beta1.Coin")) {
    await sendCoins(ctx, requestAccount, encodeBech32Address(ctx.chain.bech32Prefix, key), coinsFromProto([coin]));
  }
  for (const [id] of await entriesUnder(ctx.store, REQUEST_CONTEXTS)) {
    const context = (await getContext(ctx, id))!;
    setContext(ctx, id, { ...context, state: PAUSED, batch_state: BATCH_COMPLETED, batch_request_count: 0, batch_response_count: 0 });
  }
}
