import { concatBytes, uint64Bytes } from "../../store/keyEncoding.js";
import { utf8 } from "../../store/moduleStore.js";
import { MODULE_PARAMS_KEY } from "../shared/paramsKey.js";

/**
 * Key layout of the service store, as irismod v1.3.1 types/keys.go builds it.
 * Addresses are raw 20-byte account addresses unless marked bech32; 0x00 separates strings.
 *
 *   0x01 | service name                                   → ServiceDefinition
 *   0x02 | service name 0x00 provider(bech32)             → ServiceBinding
 *   0x03 | owner | service name 0x00 | provider           → (empty) owner's bindings
 *   0x04 | provider                                       → owner address
 *   0x05 | owner | provider                               → (empty) owner's providers
 *   0x07 | owner                                          → withdraw address
 *   0x08 | request context id (40 bytes)                  → RequestContext
 *   0x09 | expiration height (8) | request context id     → BytesValue(request context id)
 *   0x10 | batch height (8) | request context id          → BytesValue(request context id) (new batches due)
 *   0x11 | request context id                             → Int64Value(batch expiration height)
 *   0x12 | request context id                             → Int64Value(new batch height)
 *   0x13 | request id (58 bytes)                          → CompactRequest
 *   0x14 | service name 0x00 provider(bech32) 0x00 | expiration height (8) | request id → BytesValue(request id)
 *   0x15 | request id                                     → BytesValue(request id) (active requests by id)
 *   0x16 | request id                                     → Response
 *   0x17 | consumer(bech32) 0x00 service name 0x00 provider(bech32) → UInt64Value(request volume)
 *   0x18 | provider | denom                               → Coin (earned fees)
 *   0x19 | owner | denom                                  → Coin (owner's earned fees)
 *   0x20                                                  → Int64Value(internal index of the block's request contexts)
 *   Params: MODULE_PARAMS_KEY (the real chain keeps them in the x/params subspace "service")
 *
 * A request id is request context id | batch counter (8) | request height (8) | index in the batch (2),
 * so the requests and responses of one batch share the prefix 0x13/0x16 | context id | batch counter.
 */
const DELIMITER = Uint8Array.of(0x00);
const prefix = (byte: number) => Uint8Array.of(byte);

export const PARAMS_KEY = MODULE_PARAMS_KEY;
export const INTERNAL_INDEX_KEY = prefix(0x20);
export const DEFINITION_PREFIX = prefix(0x01);

export const definitionKey = (name: string) => concatBytes(DEFINITION_PREFIX, utf8(name));

export const bindingsPrefix = (serviceName: string) => concatBytes(prefix(0x02), utf8(serviceName), DELIMITER);
export const bindingKey = (serviceName: string, providerBech32: string) => concatBytes(bindingsPrefix(serviceName), utf8(providerBech32));

export const ownerBindingsPrefix = (owner: Uint8Array, serviceName: string) => concatBytes(prefix(0x03), owner, utf8(serviceName), DELIMITER);
export const ownerBindingKey = (owner: Uint8Array, serviceName: string, provider: Uint8Array) => concatBytes(ownerBindingsPrefix(owner, serviceName), provider);

export const ownerKey = (provider: Uint8Array) => concatBytes(prefix(0x04), provider);
export const ownerProvidersPrefix = (owner: Uint8Array) => concatBytes(prefix(0x05), owner);
export const ownerProviderKey = (owner: Uint8Array, provider: Uint8Array) => concatBytes(ownerProvidersPrefix(owner), provider);
export const withdrawAddressKey = (owner: Uint8Array) => concatBytes(prefix(0x07), owner);
export const requestContextKey = (contextId: Uint8Array) => concatBytes(prefix(0x08), contextId);

export const expiredBatchKey = (expirationHeight: number, contextId: Uint8Array) => concatBytes(prefix(0x09), uint64Bytes(expirationHeight), contextId);
export const expiredBatchesPrefix = (expirationHeight: number) => concatBytes(prefix(0x09), uint64Bytes(expirationHeight));
export const newBatchKey = (batchHeight: number, contextId: Uint8Array) => concatBytes(prefix(0x10), uint64Bytes(batchHeight), contextId);
export const newBatchesPrefix = (batchHeight: number) => concatBytes(prefix(0x10), uint64Bytes(batchHeight));
export const newBatchHeightKey = (contextId: Uint8Array) => concatBytes(prefix(0x12), contextId);
export const expiredBatchHeightKey = (contextId: Uint8Array) => concatBytes(prefix(0x11), contextId);

export const requestKey = (requestId: Uint8Array) => concatBytes(prefix(0x13), requestId);
export const requestsOfBatchPrefix = (contextId: Uint8Array, batchCounter: bigint) => concatBytes(prefix(0x13), contextId, bigEndian64(batchCounter));

export const activeRequestsPrefix = (serviceName: string, providerBech32: string) =>
  concatBytes(prefix(0x14), utf8(serviceName), DELIMITER, utf8(providerBech32), DELIMITER);
export const activeRequestKey = (serviceName: string, providerBech32: string, expirationHeight: number, requestId: Uint8Array) =>
  concatBytes(activeRequestsPrefix(serviceName, providerBech32), uint64Bytes(expirationHeight), requestId);
export const activeRequestByIdKey = (requestId: Uint8Array) => concatBytes(prefix(0x15), requestId);
export const activeRequestsOfBatchPrefix = (contextId: Uint8Array, batchCounter: bigint) => concatBytes(prefix(0x15), contextId, bigEndian64(batchCounter));

export const responseKey = (requestId: Uint8Array) => concatBytes(prefix(0x16), requestId);
export const responsesOfBatchPrefix = (contextId: Uint8Array, batchCounter: bigint) => concatBytes(prefix(0x16), contextId, bigEndian64(batchCounter));

export const requestVolumeKey = (consumerBech32: string, serviceName: string, providerBech32: string) =>
  concatBytes(prefix(0x17), utf8(consumerBech32), DELIMITER, utf8(serviceName), DELIMITER, utf8(providerBech32));

export const earnedFeesPrefix = (provider: Uint8Array) => concatBytes(prefix(0x18), provider);
export const ownerEarnedFeesPrefix = (owner: Uint8Array) => concatBytes(prefix(0x19), owner);

/** An unsigned 64-bit big-endian number (the batch counter is a full uint64). */
export function bigEndian64(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, value));
  return out;
}
