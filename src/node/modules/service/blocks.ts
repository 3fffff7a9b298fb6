import type { ExecContext } from "../nodeModule.js";
import { upperHex } from "../shared/hexBytes.js";
import { TxError } from "../../abci/txError.js";
import { cleanBatch, completeBatch, completeContext, emitContextEvent, filterProviders, initiateRequests, pauseForCause, skipBatch, slash } from "./batches.js";
import { deductServiceFees, refundServiceFee } from "./fees.js";
import * as keys from "./keys.js";
import * as store from "./store.js";
import { BATCH_COMPLETED, COMPLETED, RUNNING } from "./store.js";

/** BeginBlocker (irismod v1.3.1 service/abci.go): the block's internal index of request contexts starts at 0. */
export function resetIndex(ctx: ExecContext): Promise<void> {
  store.resetInternalIndex(ctx);
  return Promise.resolve();
}

/**
 * EndBlocker (service/abci.go): first the batches that expire at this height — their unanswered
 * requests slash the provider and refund the consumer, the batch completes, and a repeated running
 * context is queued for its next batch at expiry − timeout + frequency (a finished one is deleted);
 * then the batches due at this height start: the consumer pays the filtered providers' prices and
 * each gets a request (or the batch is skipped when fewer providers than the threshold remain).
 */
export async function runRequestBatches(ctx: ExecContext): Promise<void> {
  for (const contextId of await store.contextIdsAt(ctx, keys.expiredBatchesPrefix(ctx.height))) await expireBatch(ctx, contextId);
  const providerRequests = new Map<string, string[]>();
  for (const contextId of await store.contextIdsAt(ctx, keys.newBatchesPrefix(ctx.height))) await startBatch(ctx, contextId, providerRequests);
  for (const [tag, requests] of providerRequests) {
    const [serviceName, provider] = tag.split(".");
    emitContextEvent(ctx, "new_batch_request_provider", [
      ["service_name", serviceName!],
      ["provider", provider!],
      ["requests", JSON.stringify(requests)],
    ]);
  }
}

async function expireBatch(ctx: ExecContext, contextId: Uint8Array): Promise<void> {
  let context = await store.getContext(ctx, contextId);
  if (!context) {
    store.deleteBatchExpiration(ctx, contextId, ctx.height);
    return;
  }
  if (context.batch_state !== BATCH_COMPLETED) {
    for (const requestId of await store.activeRequestIdsOfBatch(ctx, contextId, context.batch_counter)) {
      const request = await store.getCompactRequest(ctx, requestId);
      if (!request) continue;
      await slash(ctx, requestId, context.service_name, request.provider);
      await refundServiceFee(ctx, context.consumer, request.service_fee);
      store.deleteActiveRequest(ctx, context.service_name, request.provider, request.expiration_height, requestId);
    }
    context = await completeBatch(ctx, context, contextId);
  }
  store.deleteBatchExpiration(ctx, contextId, ctx.height);
  store.setContext(ctx, contextId, context);
  if (context.state === COMPLETED) completeContext(ctx, contextId);
  if (context.state === RUNNING) {
    if (context.repeated && (context.repeated_total < 0 || context.batch_counter < context.repeated_total)) {
      store.addNewBatch(ctx, contextId, ctx.height - context.timeout + context.repeated_frequency);
    } else {
      completeContext(ctx, contextId);
    }
  }
  await cleanBatch(ctx, context, contextId);
}

async function startBatch(ctx: ExecContext, contextId: Uint8Array, providerRequests: Map<string, string[]>): Promise<void> {
  const context = await store.getContext(ctx, contextId);
  if (context?.state === RUNNING) {
    const filtered = await filterProviders(ctx, context);
    if (filtered.noRateFor !== undefined) {
      // the real handler returns here: the batch waits, its key stays
      emitContextEvent(ctx, "no_exchange_rate", [
        ["price_denom", filtered.noRateFor],
        ["request_context_id", upperHex(contextId)],
        ["service_name", context.service_name],
        ["consumer", context.consumer],
      ]);
      return;
    }
    if (filtered.providers.length > 0 && filtered.providers.length >= context.response_threshold) {
      try {
        await deductServiceFees(ctx, context.consumer, filtered.total);
      } catch (err) {
        if (!(err instanceof TxError)) throw err;
        await pauseForCause(ctx, context, contextId, "insufficient balances");
      }
      if (context.state === RUNNING) {
        await initiateRequests(ctx, contextId, filtered.providers, providerRequests);
        store.addBatchExpiration(ctx, contextId, ctx.height + context.timeout);
      }
    } else {
      skipBatch(ctx, contextId, context);
    }
    const updated = (await store.getContext(ctx, contextId))!;
    emitContextEvent(ctx, "new_batch", [
      ["request_context_id", upperHex(contextId)],
      [
        "request_context_state",
        JSON.stringify({
          batch_counter: updated.batch_counter,
          state: updated.batch_state,
          batch_response_threshold: updated.batch_response_threshold,
          batch_request_count: updated.batch_request_count,
          batch_response_count: updated.batch_response_count,
        }),
      ],
    ]);
  }
  store.deleteNewBatch(ctx, contextId, ctx.height);
}
