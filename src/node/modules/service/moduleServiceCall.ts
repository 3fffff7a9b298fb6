import { sha256 } from "@noble/hashes/sha2.js";
import type { Coin } from "../bank/keeper.js";
import type { ExecContext, ModuleService } from "../nodeModule.js";
import { upperHex } from "../shared/hexBytes.js";
import { addResponse, emitContextEvent, filterProviders, initiateRequests } from "./batches.js";
import { serviceError } from "./errors.js";
import { deductServiceFees } from "./fees.js";
import { createRequestContext } from "./requestContexts.js";
import * as store from "./store.js";
import { COMPLETED, RUNNING } from "./store.js";

/** The provider account of a module service: AddressHash (SHA-256, first 20 bytes) of its key. */
const moduleServiceProvider = (ctx: ExecContext, service: ModuleService) =>
  store.addressText(ctx, sha256(new TextEncoder().encode(service.providerKey)).subarray(0, 20));

/**
 * MsgCallService of a module's own service (irismod v1.3.1 keeper/msg_server.go CallService and
 * keeper/module_service.go RequestModuleService): a one-block context with the module as provider;
 * the consumer pays its price, the module answers in the same transaction, and the context is
 * marked completed — with the counters it had before the request, as the real keeper saves the
 * copy it read first.
 */
export async function callModuleService(ctx: ExecContext, service: ModuleService, consumer: string, input: string, serviceFeeCap: Coin[]): Promise<Uint8Array> {
  const provider = moduleServiceProvider(ctx, service);
  const id = await createRequestContext(ctx, {
    serviceName: service.serviceName,
    providers: [provider],
    consumer,
    input,
    serviceFeeCap,
    timeout: 1,
    repeated: false,
    repeatedFrequency: 0,
    repeatedTotal: 0,
    state: RUNNING,
    responseThreshold: 0,
    moduleName: "",
  });
  const context = await store.getContext(ctx, id);
  if (!context) throw serviceError("unknownRequestContext", upperHex(id));
  const filtered = await filterProviders(ctx, context);
  if (filtered.noRateFor !== undefined) throw serviceError("invalidModuleService", `no exchange rate for ${filtered.noRateFor}`);
  await deductServiceFees(ctx, consumer, filtered.total);
  const [requestId] = await initiateRequests(ctx, id, [provider], new Map());
  const { result, output } = await service.request(ctx, input);
  const { request } = await addResponse(ctx, requestId!, provider, result, output);
  store.setContext(ctx, id, { ...context, state: COMPLETED });
  emitContextEvent(ctx, "respond_service", [
    ["request_context_id", request.request_context_id],
    ["request_id", upperHex(requestId!)],
    ["service_name", context.service_name],
    ["provider", provider],
    ["consumer", consumer],
  ]);
  return id;
}
