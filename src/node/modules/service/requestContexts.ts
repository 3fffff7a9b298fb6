import { sha256 } from "@noble/hashes/sha2.js";
import type { Coin } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { upperHex } from "../shared/hexBytes.js";
import { serviceError } from "./errors.js";
import { makeRequestContextId } from "./ids.js";
import { baseDenom, maxRequestTimeout } from "./params.js";
import * as store from "./store.js";
import { BATCH_COMPLETED, COMPLETED, PAUSED, RUNNING, type RequestContext } from "./store.js";
import { checkRequest, checkRequestContextUpdate } from "./validation.js";
import { inputDocumentError } from "./documentSchema.js";

/** The settings of a new request context (CreateRequestContext's arguments). */
export interface NewRequestContext {
  serviceName: string;
  providers: string[];
  consumer: string;
  input: string;
  serviceFeeCap: Coin[];
  timeout: number;
  repeated: boolean;
  repeatedFrequency: number;
  repeatedTotal: number;
  state: number;
  responseThreshold: number;
  /** The module that gets the responses ("" for a consumer's own call). */
  moduleName: string;
}

/** validateServiceFeeCap: one coin, of the base denom. */
async function checkFeeCapDenom(ctx: ExecContext, cap: Coin[]): Promise<void> {
  const base = await baseDenom(ctx);
  if (cap.length !== 1 || cap[0]!.denom !== base) throw serviceError("invalidServiceFeeCap", `service fee cap only accepts ${base}`);
}

/**
 * CreateRequestContext (irismod v1.3.1 keeper/invocation.go): a running context gets its first
 * batch in this block's EndBlock. The id is the transaction's hash and the block's internal index.
 */
export async function createRequestContext(ctx: ExecContext, settings: NewRequestContext): Promise<Uint8Array> {
  if (settings.moduleName !== "") {
    checkRequest(
      {
        service_name: settings.serviceName,
        service_fee_cap: settings.serviceFeeCap.map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
        input: settings.input,
        timeout: String(settings.timeout),
        repeated: settings.repeated,
        repeated_frequency: String(settings.repeatedFrequency),
        repeated_total: String(settings.repeatedTotal),
      },
      settings.providers,
    );
    if (settings.responseThreshold < 1 || settings.responseThreshold > settings.providers.length)
      throw serviceError("invalidResponseThreshold", `response threshold [${settings.responseThreshold}] must be between [1,${settings.providers.length}]`);
  }
  if (!(await store.getDefinition(ctx, settings.serviceName))) throw serviceError("unknownServiceDefinition", settings.serviceName);
  const inputError = inputDocumentError(settings.input);
  if (inputError) throw serviceError("invalidRequestInput", inputError);
  await checkFeeCapDenom(ctx, settings.serviceFeeCap);
  const max = await maxRequestTimeout(ctx);
  if (settings.timeout > max) throw serviceError("invalidTimeout", `timeout [${settings.timeout}] must not be greater than the max request timeout [${max}]`);
  const frequency = settings.repeated ? settings.repeatedFrequency || settings.timeout : 0;
  const context: RequestContext = {
    service_name: settings.serviceName,
    providers: settings.providers,
    consumer: settings.consumer,
    input: settings.input,
    service_fee_cap: settings.serviceFeeCap,
    module_name: settings.moduleName,
    timeout: settings.timeout,
    repeated: settings.repeated,
    repeated_frequency: frequency,
    repeated_total: settings.repeated ? settings.repeatedTotal : 0,
    batch_counter: 0,
    batch_request_count: 0,
    batch_response_count: 0,
    batch_response_threshold: settings.responseThreshold,
    response_threshold: settings.responseThreshold,
    batch_state: BATCH_COMPLETED,
    state: settings.state,
  };
  const id = makeRequestContextId(sha256(ctx.txBytes ?? new Uint8Array()), await store.nextInternalIndex(ctx));
  store.setContext(ctx, id, context);
  if (context.state === RUNNING) store.addNewBatch(ctx, id, ctx.height);
  return id;
}

/** Loads a context or refuses with ErrUnknownRequestContext. */
async function contextOrRefuse(ctx: ExecContext, id: Uint8Array): Promise<RequestContext> {
  const context = await store.getContext(ctx, id);
  if (!context) throw serviceError("unknownRequestContext", upperHex(id));
  return context;
}

/** CheckAuthority: only the consumer; with `checkModule`, not a context a module runs. */
export async function checkAuthority(ctx: ExecContext, consumer: string, id: Uint8Array, checkModule: boolean): Promise<void> {
  const context = await contextOrRefuse(ctx, id);
  if (consumer !== context.consumer) throw serviceError("notAuthorized", "consumer not matching");
  if (checkModule && context.module_name !== "") throw serviceError("notAuthorized", "not authorized operation");
}

export interface RequestContextUpdate {
  providers: string[];
  responseThreshold: number;
  serviceFeeCap: Coin[];
  timeout: number;
  repeatedFrequency: number;
  repeatedTotal: number;
}

/** UpdateRequestContext: zero values keep the current settings. */
export async function updateRequestContext(ctx: ExecContext, id: Uint8Array, update: RequestContextUpdate, consumer: string): Promise<void> {
  const context = await contextOrRefuse(ctx, id);
  if (context.module_name !== "") await checkAuthority(ctx, consumer, id, false);
  if (context.state === COMPLETED) throw serviceError("requestContextCompleted");
  let providers = update.providers;
  if (context.module_name !== "") {
    checkRequestContextUpdate(
      {
        service_fee_cap: update.serviceFeeCap.map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
        timeout: String(update.timeout),
        repeated_frequency: String(update.repeatedFrequency),
        repeated_total: String(update.repeatedTotal),
      },
      update.providers,
    );
    let threshold = update.responseThreshold;
    if (threshold === 0) threshold = context.response_threshold;
    if (providers.length === 0) providers = context.providers;
    if (threshold > providers.length)
      throw serviceError("invalidResponseThreshold", `response threshold [${threshold}] must be between [1,${providers.length}]`);
    if (threshold > 0) context.response_threshold = threshold;
  }
  if (update.serviceFeeCap.length > 0) {
    await checkFeeCapDenom(ctx, update.serviceFeeCap);
    context.service_fee_cap = update.serviceFeeCap;
  }
  const max = await maxRequestTimeout(ctx);
  if (update.timeout > max) throw serviceError("invalidTimeout", `timeout [${update.timeout}] must not be greater than the max request timeout [${max}]`);
  const timeout = update.timeout === 0 ? context.timeout : update.timeout;
  const frequency = update.repeatedFrequency === 0 ? context.repeated_frequency : update.repeatedFrequency;
  // the text names the context's current timeout, as the real one does
  if (frequency < timeout)
    throw serviceError("invalidRepeatedFreq", `repeated frequency [${frequency}] must not be less than the timeout [${context.timeout}]`);
  if (update.repeatedTotal >= 1 && update.repeatedTotal < context.batch_counter)
    throw serviceError(
      "invalidRepeatedTotal",
      `updated repeated total [${update.repeatedTotal}] must not be less than the current batch counter [${context.batch_counter}]`,
    );
  if (providers.length > 0) context.providers = providers;
  if (timeout > 0) context.timeout = timeout;
  if (frequency > 0) context.repeated_frequency = frequency;
  if (update.repeatedTotal !== 0) context.repeated_total = update.repeatedTotal;
  store.setContext(ctx, id, context);
}

export async function pauseRequestContext(ctx: ExecContext, id: Uint8Array, consumer: string): Promise<void> {
  const context = await contextOrRefuse(ctx, id);
  if (context.module_name !== "") await checkAuthority(ctx, consumer, id, false);
  if (!context.repeated) throw serviceError("requestContextNonRepeated");
  if (context.state !== RUNNING) throw serviceError("requestContextNotRunning");
  context.state = PAUSED;
  store.setContext(ctx, id, context);
}

/** StartRequestContext: a paused context runs again; a new batch now unless one is pending. */
export async function startRequestContext(ctx: ExecContext, id: Uint8Array, consumer: string): Promise<void> {
  const context = await contextOrRefuse(ctx, id);
  if (context.module_name !== "") await checkAuthority(ctx, consumer, id, false);
  if (context.state !== PAUSED) throw serviceError("requestContextNotPaused");
  context.state = RUNNING;
  store.setContext(ctx, id, context);
  if (!(await store.hasBatchExpiration(ctx, id)) && !(await store.hasNewBatch(ctx, id))) store.addNewBatch(ctx, id, ctx.height);
}

export async function killRequestContext(ctx: ExecContext, id: Uint8Array, consumer: string): Promise<void> {
  const context = await contextOrRefuse(ctx, id);
  if (context.module_name !== "") await checkAuthority(ctx, consumer, id, false);
  if (!context.repeated) throw serviceError("requestContextNonRepeated");
  context.state = COMPLETED;
  store.setContext(ctx, id, context);
}
