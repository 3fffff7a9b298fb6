import { encodeBech32Address } from "../../../codec/bech32.js";
import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { decodeBytesValue, decodeUInt64Value, encodeBytesValue, encodeInt64Value, encodeUInt64Value } from "../../store/wrapperValues.js";
import { coinsFromProto, coinsToProto, type Coin } from "../bank/keeper.js";
import type { ExecContext } from "../nodeModule.js";
import { accountBytes } from "../shared/msgAddresses.js";
import * as keys from "./keys.js";

/**
 * Reading and writing the service store (irismod v1.3.1 service/keeper), for the module's own
 * files and for the modules that run request contexts through it (oracle, random). Every function
 * takes the ExecContext of the caller and works on the "service" store.
 */

/** RequestContextState and RequestContextBatchState (service.proto). */
export const RUNNING = 0;
export const PAUSED = 1;
export const COMPLETED = 2;
export const BATCH_RUNNING = 0;
export const BATCH_COMPLETED = 1;

export interface RequestContext {
  service_name: string;
  providers: string[];
  consumer: string;
  input: string;
  service_fee_cap: Coin[];
  module_name: string;
  timeout: number;
  repeated: boolean;
  repeated_frequency: number;
  repeated_total: number;
  batch_counter: number;
  batch_request_count: number;
  batch_response_count: number;
  batch_response_threshold: number;
  response_threshold: number;
  batch_state: number;
  state: number;
}

export interface CompactRequest {
  request_context_id: string;
  request_context_batch_counter: number;
  provider: string;
  service_fee: Coin[];
  request_height: number;
  expiration_height: number;
}

const store = (ctx: ExecContext) => ctx.storeOf("service");
const type = (ctx: ExecContext, name: string) => ctx.codec.type(`extmod.service.${name}`);
const encode = (ctx: ExecContext, name: string, value: object) => type(ctx, name).encode(value).finish();
const num = (value: unknown) => Number(fieldText(value, "0"));

export const addressText = (ctx: ExecContext, bytes: Uint8Array) => encodeBech32Address(ctx.chain.bech32Prefix, bytes);

export async function getDefinition(ctx: ExecContext, name: string): Promise<ProtoMessage | undefined> {
  const bytes = await store(ctx).get(keys.definitionKey(name));
  return bytes && type(ctx, "ServiceDefinition").decode(bytes);
}

export function setDefinition(ctx: ExecContext, definition: ProtoMessage): void {
  store(ctx).set(keys.definitionKey(fieldText(definition.name)), encode(ctx, "ServiceDefinition", definition));
}

export interface Binding {
  service_name: string;
  provider: string;
  deposit: Coin[];
  pricing: string;
  qos: number;
  options: string;
  available: boolean;
  disabled_time: Date;
  owner: string;
}

/** The zero time.Time of Go, which a binding's disabled_time is while it is available. */
export const ZERO_TIME = new Date("0001-01-01T00:00:00Z");

export async function getBinding(ctx: ExecContext, serviceName: string, provider: string): Promise<Binding | undefined> {
  const bytes = await store(ctx).get(keys.bindingKey(serviceName, provider));
  return bytes && bindingFromProto(type(ctx, "ServiceBinding").decode(bytes));
}

function bindingFromProto(b: ProtoMessage): Binding {
  const time = (b.disabled_time ?? {}) as ProtoMessage;
  return {
    service_name: fieldText(b.service_name),
    provider: fieldText(b.provider),
    deposit: coinsFromProto(b.deposit),
    pricing: fieldText(b.pricing),
    qos: num(b.qos),
    options: fieldText(b.options),
    available: b.available === true,
    disabled_time: new Date(num(time.seconds) * 1000 + Math.floor(num(time.nanos) / 1e6)),
    owner: fieldText(b.owner),
  };
}

export function setBinding(ctx: ExecContext, binding: Binding): void {
  const ms = binding.disabled_time.getTime();
  const value = {
    ...binding,
    deposit: coinsToProto(binding.deposit),
    qos: String(binding.qos),
    disabled_time: { seconds: String(Math.floor(ms / 1000)), nanos: (((ms % 1000) + 1000) % 1000) * 1e6 },
  };
  store(ctx).set(keys.bindingKey(binding.service_name, binding.provider), encode(ctx, "ServiceBinding", value));
}

/** Every binding of a service, in store order (ServiceBindingsIterator). */
export async function bindingsOf(ctx: ExecContext, serviceName: string): Promise<Binding[]> {
  const found: Binding[] = [];
  for await (const [, value] of store(ctx).iterate(keys.bindingsPrefix(serviceName))) found.push(bindingFromProto(type(ctx, "ServiceBinding").decode(value)));
  return found;
}

export function setOwnerBinding(ctx: ExecContext, owner: Uint8Array, serviceName: string, provider: Uint8Array): void {
  store(ctx).set(keys.ownerBindingKey(owner, serviceName, provider), new Uint8Array());
}

export async function getOwner(ctx: ExecContext, provider: Uint8Array): Promise<Uint8Array | undefined> {
  const bytes = await store(ctx).get(keys.ownerKey(provider));
  return bytes?.slice();
}

export function setOwner(ctx: ExecContext, provider: Uint8Array, owner: Uint8Array): void {
  store(ctx).set(keys.ownerKey(provider), owner);
  store(ctx).set(keys.ownerProviderKey(owner, provider), new Uint8Array());
}

export async function ownerProviders(ctx: ExecContext, owner: Uint8Array): Promise<Uint8Array[]> {
  const found: Uint8Array[] = [];
  for await (const [key] of store(ctx).iterate(keys.ownerProvidersPrefix(owner))) found.push(key.slice());
  return found;
}

export function setWithdrawAddress(ctx: ExecContext, owner: Uint8Array, withdraw: Uint8Array): void {
  store(ctx).set(keys.withdrawAddressKey(owner), withdraw);
}

export async function getWithdrawAddress(ctx: ExecContext, owner: Uint8Array): Promise<Uint8Array> {
  return (await store(ctx).get(keys.withdrawAddressKey(owner)))?.slice() ?? owner;
}

export async function getContext(ctx: ExecContext, id: Uint8Array): Promise<RequestContext | undefined> {
  const bytes = await store(ctx).get(keys.requestContextKey(id));
  if (!bytes) return undefined;
  const c = type(ctx, "RequestContext").decode(bytes);
  return {
    service_name: fieldText(c.service_name),
    providers: ((c.providers ?? []) as unknown[]).map((p) => fieldText(p)),
    consumer: fieldText(c.consumer),
    input: fieldText(c.input),
    service_fee_cap: coinsFromProto(c.service_fee_cap),
    module_name: fieldText(c.module_name),
    timeout: num(c.timeout),
    repeated: c.repeated === true,
    repeated_frequency: num(c.repeated_frequency),
    repeated_total: num(c.repeated_total),
    batch_counter: num(c.batch_counter),
    batch_request_count: num(c.batch_request_count),
    batch_response_count: num(c.batch_response_count),
    batch_response_threshold: num(c.batch_response_threshold),
    response_threshold: num(c.response_threshold),
    batch_state: num(c.batch_state),
    state: num(c.state),
  };
}

export function setContext(ctx: ExecContext, id: Uint8Array, context: RequestContext): void {
  const value = {
    ...context,
    service_fee_cap: coinsToProto(context.service_fee_cap),
    timeout: String(context.timeout),
    repeated_frequency: String(context.repeated_frequency),
    repeated_total: String(context.repeated_total),
    batch_counter: String(context.batch_counter),
  };
  store(ctx).set(keys.requestContextKey(id), encode(ctx, "RequestContext", value));
}

export function deleteContext(ctx: ExecContext, id: Uint8Array): void {
  store(ctx).delete(keys.requestContextKey(id));
}

export async function getCompactRequest(ctx: ExecContext, id: Uint8Array): Promise<CompactRequest | undefined> {
  const bytes = await store(ctx).get(keys.requestKey(id));
  if (!bytes) return undefined;
  const r = type(ctx, "CompactRequest").decode(bytes);
  return {
    request_context_id: fieldText(r.request_context_id),
    request_context_batch_counter: num(r.request_context_batch_counter),
    provider: fieldText(r.provider),
    service_fee: coinsFromProto(r.service_fee),
    request_height: num(r.request_height),
    expiration_height: num(r.expiration_height),
  };
}

export function setCompactRequest(ctx: ExecContext, id: Uint8Array, request: CompactRequest): void {
  const value = {
    ...request,
    request_context_batch_counter: String(request.request_context_batch_counter),
    service_fee: coinsToProto(request.service_fee),
    request_height: String(request.request_height),
    expiration_height: String(request.expiration_height),
  };
  store(ctx).set(keys.requestKey(id), encode(ctx, "CompactRequest", value));
}

/** The ids of a batch's requests (RequestsIteratorByReqCtx). */
export async function requestIdsOfBatch(ctx: ExecContext, contextId: Uint8Array, batchCounter: number): Promise<Uint8Array[]> {
  const prefix = keys.requestsOfBatchPrefix(contextId, BigInt(batchCounter));
  const ids: Uint8Array[] = [];
  for await (const [key] of store(ctx).iterate(prefix)) ids.push(concatBytes(prefix.subarray(1), key));
  return ids;
}

export function deleteRequestAndResponse(ctx: ExecContext, id: Uint8Array): void {
  store(ctx).delete(keys.requestKey(id));
  store(ctx).delete(keys.responseKey(id));
}

export function addActiveRequest(ctx: ExecContext, serviceName: string, provider: string, expirationHeight: number, id: Uint8Array): void {
  store(ctx).set(keys.activeRequestKey(serviceName, provider, expirationHeight, id), encodeBytesValue(id));
  store(ctx).set(keys.activeRequestByIdKey(id), encodeBytesValue(id));
}

export function deleteActiveRequest(ctx: ExecContext, serviceName: string, provider: string, expirationHeight: number, id: Uint8Array): void {
  store(ctx).delete(keys.activeRequestKey(serviceName, provider, expirationHeight, id));
  store(ctx).delete(keys.activeRequestByIdKey(id));
}

export async function isRequestActive(ctx: ExecContext, id: Uint8Array): Promise<boolean> {
  return (await store(ctx).get(keys.activeRequestByIdKey(id))) !== undefined;
}

export async function activeRequestIdsOfBatch(ctx: ExecContext, contextId: Uint8Array, batchCounter: number): Promise<Uint8Array[]> {
  const ids: Uint8Array[] = [];
  for await (const [, value] of store(ctx).iterate(keys.activeRequestsOfBatchPrefix(contextId, BigInt(batchCounter))))
    ids.push(decodeBytesValue(value).slice());
  return ids;
}

export function setResponse(ctx: ExecContext, id: Uint8Array, response: object): void {
  store(ctx).set(keys.responseKey(id), encode(ctx, "Response", response));
}

/** The outputs of a batch's responses that have one (GetResponseOutputs), in request-id order. */
export async function responseOutputs(ctx: ExecContext, contextId: Uint8Array, batchCounter: number): Promise<string[]> {
  const outputs: string[] = [];
  for await (const [, value] of store(ctx).iterate(keys.responsesOfBatchPrefix(contextId, BigInt(batchCounter)))) {
    const output = fieldText(type(ctx, "Response").decode(value).output);
    if (output !== "") outputs.push(output);
  }
  return outputs;
}

export function addBatchExpiration(ctx: ExecContext, contextId: Uint8Array, height: number): void {
  store(ctx).set(keys.expiredBatchKey(height, contextId), encodeBytesValue(contextId));
  store(ctx).set(keys.expiredBatchHeightKey(contextId), encodeInt64Value(height));
}

export function deleteBatchExpiration(ctx: ExecContext, contextId: Uint8Array, height: number): void {
  store(ctx).delete(keys.expiredBatchKey(height, contextId));
  store(ctx).delete(keys.expiredBatchHeightKey(contextId));
}

export async function hasBatchExpiration(ctx: ExecContext, contextId: Uint8Array): Promise<boolean> {
  return (await store(ctx).get(keys.expiredBatchHeightKey(contextId))) !== undefined;
}

export function addNewBatch(ctx: ExecContext, contextId: Uint8Array, height: number): void {
  store(ctx).set(keys.newBatchKey(height, contextId), encodeBytesValue(contextId));
  store(ctx).set(keys.newBatchHeightKey(contextId), encodeInt64Value(height));
}

export function deleteNewBatch(ctx: ExecContext, contextId: Uint8Array, height: number): void {
  store(ctx).delete(keys.newBatchKey(height, contextId));
  store(ctx).delete(keys.newBatchHeightKey(contextId));
}

export async function hasNewBatch(ctx: ExecContext, contextId: Uint8Array): Promise<boolean> {
  return (await store(ctx).get(keys.newBatchHeightKey(contextId))) !== undefined;
}

/** The context ids queued under one height (IterateExpiredRequestBatch / IterateNewRequestBatch). */
export async function contextIdsAt(ctx: ExecContext, prefix: Uint8Array): Promise<Uint8Array[]> {
  const ids: Uint8Array[] = [];
  for await (const [, value] of store(ctx).iterate(prefix)) ids.push(decodeBytesValue(value).slice());
  return ids;
}

export async function getRequestVolume(ctx: ExecContext, consumer: string, serviceName: string, provider: string): Promise<bigint> {
  const bytes = await store(ctx).get(keys.requestVolumeKey(consumer, serviceName, provider));
  return bytes ? decodeUInt64Value(bytes) : 0n;
}

export function setRequestVolume(ctx: ExecContext, consumer: string, serviceName: string, provider: string, volume: bigint): void {
  store(ctx).set(keys.requestVolumeKey(consumer, serviceName, provider), encodeUInt64Value(volume));
}

/** Earned fees under a prefix (a provider's or an owner's), one coin per denom. */
export async function getFees(ctx: ExecContext, prefix: Uint8Array): Promise<Coin[]> {
  const coinType = ctx.codec.type("core.base.v1beta1.Coin");
  const fees: Coin[] = [];
  for await (const [, value] of store(ctx).iterate(prefix)) fees.push(...coinsFromProto([coinType.decode(value)]));
  return fees.sort((a, b) => (a.denom < b.denom ? -1 : 1));
}

export function setFees(ctx: ExecContext, prefix: Uint8Array, fees: Coin[]): void {
  const coinType = ctx.codec.type("core.base.v1beta1.Coin");
  for (const coin of fees) store(ctx).set(concatBytes(prefix, utf8(coin.denom)), coinType.encode(coinsToProto([coin])[0]!).finish());
}

export async function deleteFees(ctx: ExecContext, prefix: Uint8Array): Promise<void> {
  const keysToDelete: Uint8Array[] = [];
  for await (const [key] of store(ctx).iterate(prefix)) keysToDelete.push(concatBytes(prefix, key));
  for (const key of keysToDelete) store(ctx).delete(key);
}

/**
 * GetInternalIndex: the index of the next request context created in this block (reset to 0
 * by BeginBlock), so that two contexts of one transaction get different ids.
 */
export async function nextInternalIndex(ctx: ExecContext): Promise<bigint> {
  const bytes = await store(ctx).get(keys.INTERNAL_INDEX_KEY);
  const index = bytes ? decodeUInt64Value(bytes) : 0n;
  store(ctx).set(keys.INTERNAL_INDEX_KEY, encodeInt64Value(Number(index + 1n)));
  return index;
}

export function resetInternalIndex(ctx: ExecContext): void {
  store(ctx).set(keys.INTERNAL_INDEX_KEY, encodeInt64Value(0));
}

export const providerBytes = (ctx: ExecContext, provider: string) => accountBytes(provider, ctx);
