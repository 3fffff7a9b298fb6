import { formatCoins, burnCoins, type Coin } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { decFromInt, decFromWire, decMul, decTruncateInt } from "../shared/decMath.js";
import { decodeHex, upperHex } from "../shared/hexBytes.js";
import { fieldText } from "../../../codec/fieldText.js";
import { serviceCallbacksOf } from "./callbacks.js";
import { SERVICE_ERRORS, serviceError } from "./errors.js";
import { outputDocumentError } from "./documentSchema.js";
import { addCoinLists, addEarnedFee, DEPOSIT_ACCOUNT, moduleAccount } from "./fees.js";
import { makeRequestId } from "./ids.js";
import { readServiceParams } from "./params.js";
import { discountedPrice, exchangedPrice, minDeposit, parsePricing } from "./pricing.js";
import { TxError } from "../../abci/txError.js";
import * as store from "./store.js";
import { BATCH_COMPLETED, BATCH_RUNNING, PAUSED, type CompactRequest, type RequestContext } from "./store.js";

/** A batch's counters as the complete_batch and new_batch events carry them (types/events.go BatchState). */
function batchStateJson(context: RequestContext, state = context.batch_state): string {
  return JSON.stringify({
    batch_counter: context.batch_counter,
    state,
    batch_response_threshold: context.batch_response_threshold,
    batch_request_count: context.batch_request_count,
    batch_response_count: context.batch_response_count,
  });
}

/** Go's json.Marshal of a CompactRequest (omitempty fields, sdk.Int amounts as strings). */
function compactRequestJson(request: CompactRequest): Record<string, unknown> {
  const json: Record<string, unknown> = { request_context_id: request.request_context_id };
  if (request.request_context_batch_counter) json.request_context_batch_counter = request.request_context_batch_counter;
  if (request.provider) json.provider = request.provider;
  if (request.service_fee.length > 0) json.service_fee = request.service_fee.map((c) => ({ denom: c.denom, amount: c.amount.toString() }));
  if (request.request_height) json.request_height = request.request_height;
  if (request.expiration_height) json.expiration_height = request.expiration_height;
  return json;
}

export const emitContextEvent = (ctx: ExecContext, type: string, attributes: Array<[string, string]>) =>
  ctx.emit({ type, attributes: attributes.map(([key, value]) => ({ key, value })) });

/**
 * FilterServiceProviders (keeper/invocation.go): the available bindings of the context's providers
 * whose QoS fits the timeout and whose discounted price is within the fee cap, and the sum of their
 * (undiscounted) prices, which DeductServiceFees takes. Without an exchange rate for a price's
 * denom the batch cannot start (`noRateFor`).
 */
export async function filterProviders(ctx: ExecContext, context: RequestContext): Promise<{ providers: string[]; total: Coin[]; noRateFor?: string }> {
  const providers: string[] = [];
  let total: Coin[] = [];
  for (const provider of context.providers) {
    const binding = await store.getBinding(ctx, context.service_name, provider);
    if (!binding?.available || binding.qos > context.timeout) continue;
    let price: Coin;
    try {
      price = await exchangedPrice(ctx, context.consumer, binding);
    } catch (err) {
      if (!(err instanceof TxError)) throw err;
      return { providers: [], total: [], noRateFor: parsePricing(binding.pricing).price.denom };
    }
    const capped = context.service_fee_cap.find((c) => c.denom === price.denom);
    if (price.amount === 0n || (capped !== undefined && capped.amount >= price.amount)) {
      providers.push(provider);
      total = addCoinLists(total, [parsePricing(binding.pricing).price]);
    }
  }
  return { providers, total };
}

/** InitiateRequests: the next batch's requests, one per provider, active until height + timeout. */
export async function initiateRequests(
  ctx: ExecContext,
  contextId: Uint8Array,
  providers: string[],
  providerRequests: Map<string, string[]>,
): Promise<Uint8Array[]> {
  const context = (await store.getContext(ctx, contextId))!;
  context.batch_counter++;
  const requests: CompactRequest[] = [];
  const ids: Uint8Array[] = [];
  for (const [index, provider] of providers.entries()) {
    // a module service's provider may have no binding: its requests cost nothing (GetPrice of an empty pricing)
    const binding = await store.getBinding(ctx, context.service_name, provider);
    const fee = binding ? await discountedPrice(ctx, context.consumer, binding) : { denom: "", amount: 0n };
    const request: CompactRequest = {
      request_context_id: upperHex(contextId),
      request_context_batch_counter: context.batch_counter,
      provider,
      service_fee: fee.amount > 0n ? [fee] : [],
      request_height: ctx.height,
      expiration_height: ctx.height + context.timeout,
    };
    const id = makeRequestId(contextId, BigInt(context.batch_counter), BigInt(ctx.height), index);
    store.setCompactRequest(ctx, id, request);
    store.addActiveRequest(ctx, context.service_name, provider, request.expiration_height, id);
    requests.push(request);
    const tag = `${context.service_name}.${provider}`;
    providerRequests.set(tag, [...(providerRequests.get(tag) ?? []), upperHex(id)]);
    ids.push(id);
  }
  context.batch_state = BATCH_RUNNING;
  context.batch_response_count = 0;
  context.batch_request_count = providers.length;
  context.batch_response_threshold = context.response_threshold;
  store.setContext(ctx, contextId, context);
  if (requests.length > 0) {
    emitContextEvent(ctx, "new_batch_request", [
      ["service_name", context.service_name],
      ["request_context_id", upperHex(contextId)],
      ["requests", JSON.stringify(requests.map(compactRequestJson))],
    ]);
  }
  return ids;
}

/** SkipCurrentRequestBatch: too few providers; the batch counts but has no requests, and expires after the timeout. */
export function skipBatch(ctx: ExecContext, contextId: Uint8Array, context: RequestContext): void {
  context.batch_counter++;
  context.batch_state = BATCH_RUNNING;
  context.batch_request_count = 0;
  context.batch_response_count = 0;
  context.batch_response_threshold = context.response_threshold;
  store.setContext(ctx, contextId, context);
  store.addBatchExpiration(ctx, contextId, ctx.height + context.timeout);
}

/** CompleteBatch (keeper/state_change.go): the batch is done; a module's context gets its callback. */
export async function completeBatch(ctx: ExecContext, context: RequestContext, contextId: Uint8Array): Promise<RequestContext> {
  context.batch_state = BATCH_COMPLETED;
  if (context.module_name !== "") await callback(ctx, contextId);
  emitContextEvent(ctx, "complete_batch", [
    ["request_context_id", upperHex(contextId)],
    ["request_context_state", batchStateJson(context, BATCH_COMPLETED)],
  ]);
  return context;
}

/** Callback: the outputs of the batch to the module, with an error when fewer than the threshold arrived. */
async function callback(ctx: ExecContext, contextId: Uint8Array): Promise<void> {
  const context = (await store.getContext(ctx, contextId))!;
  const callbacks = serviceCallbacksOf(context.module_name);
  if (!callbacks) return;
  const outputs = await store.responseOutputs(ctx, contextId, context.batch_counter);
  if (outputs.length >= context.batch_response_threshold) await callbacks.response(ctx, contextId, outputs);
  else
    await callbacks.response(
      ctx,
      contextId,
      outputs,
      `batch ${context.batch_counter} at least ${context.batch_response_threshold} valid outputs required, but ${outputs.length} received`,
    );
}

/** CleanBatch: the batch's requests and responses are deleted once it expires. */
export async function cleanBatch(ctx: ExecContext, context: RequestContext, contextId: Uint8Array): Promise<void> {
  for (const id of await store.requestIdsOfBatch(ctx, contextId, context.batch_counter)) store.deleteRequestAndResponse(ctx, id);
}

/** CompleteServiceContext: the context is deleted. */
export function completeContext(ctx: ExecContext, contextId: Uint8Array): void {
  store.deleteContext(ctx, contextId);
  emitContextEvent(ctx, "complete_context", [["request_context_id", upperHex(contextId)]]);
}

/** OnRequestContextPaused: the consumer could not pay; the context pauses (its module is told). */
export async function pauseForCause(ctx: ExecContext, context: RequestContext, contextId: Uint8Array, cause: string): Promise<void> {
  context.batch_state = BATCH_COMPLETED;
  context.state = PAUSED;
  store.setContext(ctx, contextId, context);
  const callbacks = context.module_name !== "" ? serviceCallbacksOf(context.module_name) : undefined;
  if (callbacks) await callbacks.state(ctx, contextId, cause);
  else emitContextEvent(ctx, "pause_context", [["request_context_id", upperHex(contextId)]]);
}

/**
 * AddResponse (keeper/invocation.go): the provider of an active request answers it; it earns
 * the fee (less tax), the request leaves the active set, the consumer's volume grows, and the
 * batch completes when every request is answered.
 */
export async function addResponse(ctx: ExecContext, requestId: Uint8Array, provider: string, result: string, output: string) {
  const request = await store.getCompactRequest(ctx, requestId);
  const contextId = request && decodeHex(request.request_context_id);
  const context = contextId && (await store.getContext(ctx, contextId));
  if (!request || !contextId || !context) throw serviceError("unknownRequest", upperHex(requestId));
  if (request.provider !== provider) throw serviceError("invalidResponse", "provider does not match");
  if (!(await store.isRequestActive(ctx, requestId))) throw serviceError("invalidResponse", "request is not active");
  // v1.3.1 validates the output here even when it is empty (a non-200 result): gojsonschema reads "" as EOF
  const outputError = output === "" ? "EOF" : outputDocumentError(output);
  if (outputError) throw serviceError("invalidResponseOutput", `${outputError}: ${SERVICE_ERRORS.invalidResponseOutput[1]}`);
  await addEarnedFee(ctx, store.providerBytes(ctx, provider), request.service_fee);
  store.setResponse(ctx, requestId, {
    provider,
    consumer: context.consumer,
    result,
    output,
    request_context_id: request.request_context_id,
    request_context_batch_counter: String(request.request_context_batch_counter),
  });
  store.deleteActiveRequest(ctx, context.service_name, provider, request.expiration_height, requestId);
  const volume = await store.getRequestVolume(ctx, context.consumer, context.service_name, provider);
  store.setRequestVolume(ctx, context.consumer, context.service_name, provider, volume + 1n);
  let updated = context;
  updated.batch_response_count++;
  // the callback of CompleteBatch reads the context from the store: store the count first
  store.setContext(ctx, contextId, updated);
  if (updated.batch_response_count === updated.batch_request_count) updated = await completeBatch(ctx, updated, contextId);
  store.setContext(ctx, contextId, updated);
  return { request, context: updated, contextId };
}

/**
 * Slash (keeper/invocation.go): an expired request costs its provider slash_fraction of the
 * binding's deposit (burnt from the deposit account); a binding left below its minimum deposit
 * becomes unavailable.
 */
export async function slash(ctx: ExecContext, requestId: Uint8Array, serviceName: string, provider: string): Promise<void> {
  const binding = await store.getBinding(ctx, serviceName, provider);
  if (!binding) return;
  const params = await readServiceParams(ctx.storeOf("service"), ctx);
  const base = fieldText(params.base_denom);
  const deposit = binding.deposit.find((c) => c.denom === base)?.amount ?? 0n;
  const slashed = decTruncateInt(decMul(decFromInt(deposit), decFromWire(fieldText(params.slash_fraction))));
  const slashedCoins = slashed > 0n ? [{ denom: base, amount: slashed }] : [];
  if (slashedCoins.length > 0) await burnCoins(ctx, moduleAccount(ctx, DEPOSIT_ACCOUNT), slashedCoins);
  binding.deposit = addCoinLists(
    binding.deposit,
    slashedCoins.map((c) => ({ denom: c.denom, amount: -c.amount })),
  );
  if (binding.available) {
    let enough = false;
    try {
      const minimum = await minDeposit(ctx, parsePricing(binding.pricing));
      enough = minimum.every((m) => (binding.deposit.find((c) => c.denom === m.denom)?.amount ?? 0n) >= m.amount);
    } catch {
      enough = false;
    }
    if (!enough) {
      binding.available = false;
      binding.disabled_time = ctx.time;
    }
  }
  store.setBinding(ctx, binding);
  emitContextEvent(ctx, "service_slash", [
    ["request_id", upperHex(requestId)],
    ["provider", provider],
    ["slashed_coins", formatCoins(slashedCoins)],
  ]);
}
