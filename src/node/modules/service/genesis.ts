import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import type { ExecContext } from "../nodeModule.js";
import { big, canonicalAddress as canonical } from "../shared/genesisObjectChecks.js";
import { decodeHex, upperHex } from "../shared/hexBytes.js";
import { splitRequestId } from "./ids.js";
import * as keys from "./keys.js";
import { encodeBytesValue, encodeInt64Value } from "../../store/wrapperValues.js";

const list = (value: unknown) => (value ?? []) as ProtoMessage[];
const entries = (value: unknown) => Object.entries((value ?? {}) as Record<string, ProtoMessage>);

type Encode = (type: string, message: unknown) => Uint8Array;
type Address = (value: unknown) => Uint8Array;

/** Writes the genesis state under the keys of serviceKeys.ts. Runs after validateServiceGenesis (serviceGenesisValidation.ts). */
export async function initServiceGenesis(state: ProtoMessage, ctx: ExecContext): Promise<void> {
  const { store, codec } = ctx;
  const address: Address = (value) => decodeBech32Address(String(value), ctx.chain.bech32Prefix, "address");
  const encode: Encode = (type, message) =>
    codec
      .type(`extmod.service.${type}`)
      .encode(message as ProtoMessage)
      .finish();

  store.set(keys.PARAMS_KEY, encode("Params", state.params ?? {}));
  for (const definition of list(state.definitions)) store.set(keys.definitionKey(String(definition.name)), encode("ServiceDefinition", definition));
  const ownerOf = writeBindings(list(state.bindings), ctx, address, encode);
  for (const [owner, withdrawAddress] of Object.entries((state.withdraw_addresses ?? {}) as Record<string, string>)) {
    store.set(keys.withdrawAddressKey(address(owner)), address(withdrawAddress));
  }
  for (const [id, context] of entries(state.request_contexts)) store.set(keys.requestContextKey(decodeHex(id)!), encode("RequestContext", context));
  writeRequests(list(state.requests), ctx, address, encode);
  writeEarnedFees(list(state.earned_fees), ownerOf, ctx, address);
}

/** The bindings with their owner indexes; returns each provider's owner. */
function writeBindings(bindings: ProtoMessage[], ctx: ExecContext, address: Address, encode: Encode): Map<string, Uint8Array> {
  const prefix = ctx.chain.bech32Prefix;
  const ownerOf = new Map<string, Uint8Array>();
  for (const binding of bindings) {
    const provider = address(binding.provider);
    const owner = address(binding.owner);
    const stored = { ...binding, provider: canonical(provider, prefix), owner: canonical(owner, prefix) };
    ctx.store.set(keys.bindingKey(String(binding.service_name), stored.provider), encode("ServiceBinding", stored));
    ctx.store.set(keys.ownerBindingKey(owner, String(binding.service_name), provider), new Uint8Array());
    ctx.store.set(keys.ownerKey(provider), owner);
    ctx.store.set(keys.ownerProviderKey(owner, provider), new Uint8Array());
    ownerOf.set(stored.provider, owner);
  }
  return ownerOf;
}

/**
 * Each request as the compact request the module stores; an answered one with
 * its response, an unanswered one in the active-request indexes. Each batch
 * with requests goes into the expiration queue at its requests' expiration height.
 */
function writeRequests(requests: ProtoMessage[], ctx: ExecContext, address: Address, encode: Encode): void {
  const batchExpirations = new Map<string, number>();
  for (const entry of requests) {
    const request = entry.request as ProtoMessage;
    const id = decodeHex(String(request.id))!;
    const contextId = upperHex(splitRequestId(id).contextId);
    const expiration = Number(big(request.expiration_height));
    const provider = canonical(address(request.provider), ctx.chain.bech32Prefix);
    const compact = {
      request_context_id: contextId,
      request_context_batch_counter: request.request_context_batch_counter,
      provider,
      service_fee: request.service_fee,
      request_height: request.request_height,
      expiration_height: request.expiration_height,
    };
    ctx.store.set(keys.requestKey(id), encode("CompactRequest", compact));
    if (entry.response) {
      ctx.store.set(keys.responseKey(id), encode("Response", entry.response));
    } else {
      ctx.store.set(keys.activeRequestKey(String(request.service_name), provider, expiration, id), encodeBytesValue(id));
      ctx.store.set(keys.activeRequestByIdKey(id), encodeBytesValue(id));
    }
    batchExpirations.set(contextId, Math.max(expiration, batchExpirations.get(contextId) ?? 0));
  }
  for (const [contextHex, expiration] of batchExpirations) {
    const contextId = decodeHex(contextHex)!;
    ctx.store.set(keys.expiredBatchKey(expiration, contextId), encodeBytesValue(contextId));
    ctx.store.set(keys.expiredBatchHeightKey(contextId), encodeInt64Value(expiration));
  }
}

/** The providers' earned fees, one coin per denom, and their sums per owner. */
function writeEarnedFees(earnedFees: ProtoMessage[], ownerOf: Map<string, Uint8Array>, ctx: ExecContext, address: Address): void {
  const coinType = ctx.codec.type("core.base.v1beta1.Coin");
  const ownerTotals = new Map<string, Map<string, bigint>>();
  for (const earned of earnedFees) {
    const provider = address(earned.provider);
    const ownerHex = upperHex(ownerOf.get(canonical(provider, ctx.chain.bech32Prefix))!);
    const totals = ownerTotals.get(ownerHex) ?? new Map<string, bigint>();
    for (const coin of list(earned.fees)) {
      ctx.store.set(concatBytes(keys.earnedFeesPrefix(provider), utf8(String(coin.denom))), coinType.encode(coin).finish());
      totals.set(String(coin.denom), (totals.get(String(coin.denom)) ?? 0n) + BigInt(String(coin.amount)));
    }
    ownerTotals.set(ownerHex, totals);
  }
  for (const [ownerHex, totals] of ownerTotals) {
    for (const [denom, amount] of totals) {
      ctx.store.set(concatBytes(keys.ownerEarnedFeesPrefix(decodeHex(ownerHex)!), utf8(denom)), coinType.encode({ denom, amount: amount.toString() }).finish());
    }
  }
}
