import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { encodeBech32Address } from "../../../codec/bech32.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import type { KVReader } from "../../store/kv.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { accountAddressParam } from "../shared/addressField.js";
import type { ModuleContext, NodeModule, QueryContext } from "../nodeModule.js";
import { big } from "../shared/genesisObjectChecks.js";
import { decodeHex, upperHex } from "../shared/hexBytes.js";
import { serviceDevGenesis } from "./devGenesis.js";
import { initServiceGenesis } from "./genesis.js";
import { exportServiceGenesis } from "./genesisExport.js";
import { validateServiceGenesis } from "./genesisValidation.js";
import { contextIdParam, requestIdParam } from "./ids.js";
import * as keys from "./keys.js";
import { readServiceParams, serviceParamValues } from "./params.js";
import { pricingSchema, RESULT_SCHEMA } from "./schemas.js";
import { decodeBytesValue } from "../../store/wrapperValues.js";
import { fieldText } from "../../../codec/fieldText.js";
import { serviceMessages } from "./messages.js";
import { resetIndex, runRequestBatches } from "./blocks.js";

/**
 * The service module (irismod v1.3.1): service definitions, provider
 * bindings, request contexts with their current batch of requests and
 * responses, earned fees. Store layout: see serviceKeys.ts.
 */
export const serviceModule: NodeModule = {
  name: "service",
  genesisType: "extmod.service.GenesisState",
  queryService: "extmod.service.Query",
  messages: serviceMessages,
  beginBlock: resetIndex,
  endBlock: runRequestBatches,

  queries: {
    async Definition(request, ctx) {
      const name = fieldText(request.service_name);
      const bytes = await ctx.store.get(keys.definitionKey(name));
      if (!bytes) throw notFound(`${name}: unknown service definition`);
      return { service_definition: decode(ctx, "ServiceDefinition", bytes) };
    },
    async Binding(request, ctx) {
      const name = fieldText(request.service_name);
      const provider = addressText(accountAddressParam(request.provider, "provider", ctx), ctx);
      const bytes = await ctx.store.get(keys.bindingKey(name, provider));
      if (!bytes) throw notFound(`service: ${name}, provider: ${String(request.provider)}: unknown service binding`);
      return { service_binding: decode(ctx, "ServiceBinding", bytes) };
    },
    async Bindings(request, ctx) {
      const name = fieldText(request.service_name);
      const pageRequest = request.pagination as PageRequest | undefined;
      const owner = fieldText(request.owner);
      if (owner === "") {
        const page = await paginate(ctx.store, keys.bindingsPrefix(name), pageRequest, (_key, value) => decode(ctx, "ServiceBinding", value));
        return { service_bindings: page.items, pagination: page.pagination };
      }
      const ownerBytes = accountAddressParam(owner, "owner", ctx);
      const page = await paginate(ctx.store, keys.ownerBindingsPrefix(ownerBytes, name), pageRequest, async (provider) => {
        const bytes = await ctx.store.get(keys.bindingKey(name, addressText(provider, ctx)));
        return bytes ? decode(ctx, "ServiceBinding", bytes) : undefined;
      });
      return { service_bindings: page.items, pagination: page.pagination };
    },
    async WithdrawAddress(request, ctx) {
      const owner = accountAddressParam(request.owner, "owner", ctx);
      const withdraw = (await ctx.store.get(keys.withdrawAddressKey(owner))) ?? owner;
      return { withdraw_address: addressText(withdraw, ctx) };
    },
    async RequestContext(request, ctx) {
      const id = contextIdParam(request.request_context_id);
      const context = await readRequestContext(ctx.store, id, ctx);
      if (!context) throw notFound(`${upperHex(id)}: unknown request context`);
      return { request_context: context };
    },
    async Request(request, ctx) {
      const id = requestIdParam(request.request_id);
      const found = await readRequest(ctx, id);
      if (!found) throw notFound(`${upperHex(id)}: unknown request`);
      return { request: found };
    },
    async Requests(request, ctx) {
      const name = fieldText(request.service_name);
      const provider = addressText(accountAddressParam(request.provider, "provider", ctx), ctx);
      const page = await paginate(ctx.store, keys.activeRequestsPrefix(name, provider), request.pagination as PageRequest, (_key, value) =>
        readRequest(ctx, decodeBytesValue(value)),
      );
      return { requests: page.items, pagination: page.pagination };
    },
    async RequestsByReqCtx(request, ctx) {
      const contextId = contextIdParam(request.request_context_id);
      const batch = big(request.batch_counter);
      const batchPrefix = keys.requestsOfBatchPrefix(contextId, batch);
      const page = await paginate(ctx.store, batchPrefix, request.pagination as PageRequest, (key) =>
        readRequest(ctx, concatBytes(batchPrefix.subarray(1), key)),
      );
      return { requests: page.items, pagination: page.pagination };
    },
    async Response(request, ctx) {
      const id = requestIdParam(request.request_id);
      const bytes = await ctx.store.get(keys.responseKey(id));
      if (!bytes) throw notFound(`${upperHex(id)}: unknown response`);
      return { response: decode(ctx, "Response", bytes) };
    },
    async Responses(request, ctx) {
      const contextId = contextIdParam(request.request_context_id);
      const prefix = keys.responsesOfBatchPrefix(contextId, big(request.batch_counter));
      const page = await paginate(ctx.store, prefix, request.pagination as PageRequest, (_key, value) => decode(ctx, "Response", value));
      return { responses: page.items, pagination: page.pagination };
    },
    async EarnedFees(request, ctx) {
      const provider = accountAddressParam(request.provider, "provider", ctx);
      const coinType = ctx.codec.type("core.base.v1beta1.Coin");
      const fees: unknown[] = [];
      for await (const [, value] of ctx.store.iterate(keys.earnedFeesPrefix(provider))) fees.push(coinType.decode(value));
      if (fees.length === 0) throw notFound(`no earned fees for ${String(request.provider)}: no earned fees`);
      return { fees };
    },
    async Schema(request, ctx) {
      const name = fieldText(request.schema_name);
      switch (name.toLowerCase()) {
        case "pricing":
          return { schema: pricingSchema(fieldText((await readServiceParams(ctx.store, ctx)).base_denom)) };
        case "result":
          return { schema: RESULT_SCHEMA };
        default:
          throw invalidArgument(`${name}: invalid service schema name`);
      }
    },
    async Params(_request, ctx) {
      return { params: await readServiceParams(ctx.store, ctx) };
    },
  },

  validateGenesis: validateServiceGenesis,
  initGenesis: initServiceGenesis,
  exportGenesis: (ctx) => exportServiceGenesis(ctx, readRequest),
  params: { subspace: "service", read: serviceParamValues },
  devGenesis: serviceDevGenesis,
};

/** A request context by id; the oracle module reads feeds' contexts through this too. */
export async function readRequestContext(store: KVReader, id: Uint8Array, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(keys.requestContextKey(id));
  return bytes ? decode(ctx, "RequestContext", bytes) : undefined;
}

/** GetRequest: the stored compact request completed from its request context. */
async function readRequest(ctx: QueryContext, id: Uint8Array): Promise<ProtoMessage | undefined> {
  const bytes = await ctx.store.get(keys.requestKey(id));
  if (!bytes) return undefined;
  const compact = decode(ctx, "CompactRequest", bytes);
  const contextId = decodeHex(fieldText(compact.request_context_id));
  const context = contextId && (await readRequestContext(ctx.store, contextId, ctx));
  if (!context) return undefined;
  return {
    id: upperHex(id),
    service_name: context.service_name,
    provider: compact.provider,
    consumer: context.consumer,
    input: context.input,
    service_fee: compact.service_fee,
    request_height: compact.request_height,
    expiration_height: compact.expiration_height,
    request_context_id: compact.request_context_id,
    request_context_batch_counter: compact.request_context_batch_counter,
  };
}

function decode(ctx: ModuleContext, type: string, bytes: Uint8Array): ProtoMessage {
  return ctx.codec.type(`extmod.service.${type}`).decode(bytes);
}

function addressText(bytes: Uint8Array, ctx: ModuleContext): string {
  return encodeBech32Address(ctx.chain.bech32Prefix, bytes);
}
