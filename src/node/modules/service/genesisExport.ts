import { encodeBech32Address } from "../../../codec/bech32.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodedUnder, entriesUnder, valuesUnder } from "../shared/exportReads.js";
import { upperHex } from "../shared/hexBytes.js";
import type { ExportContext, QueryContext } from "../nodeModule.js";
import { DEFINITION_PREFIX, responseKey } from "./keys.js";
import { readServiceParams } from "./params.js";

/** Prefixes of the records the export lists whole (keys.ts names each layout). */
const BINDINGS = Uint8Array.of(0x02);
const WITHDRAW_ADDRESSES = Uint8Array.of(0x07);
const REQUEST_CONTEXTS = Uint8Array.of(0x08);
const REQUESTS = Uint8Array.of(0x13);
const EARNED_FEES = Uint8Array.of(0x18);
const ADDRESS_LENGTH = 20;

const S = "extmod.service.";

/** The full request of a stored compact one (the module's GetRequest). */
export type RequestReader = (ctx: QueryContext, id: Uint8Array) => Promise<ProtoMessage | undefined>;

/**
 * ExportGenesis of the service module: params, definitions, bindings, withdraw addresses and
 * request contexts as irismod exports them, plus this node's extensions that carry the running
 * batches' requests (with their responses) and the providers' earned fees through a genesis.
 * For a zero-height genesis those two are left out, as the real export has them: its step refunded
 * the requests' fees and paid the earned fees out, and the contexts are paused.
 */
export async function exportServiceGenesis(ctx: ExportContext, readRequest: RequestReader): Promise<ProtoMessage> {
  const { store } = ctx;
  const account = (bytes: Uint8Array) => encodeBech32Address(ctx.chain.bech32Prefix, bytes);
  const withdraw: Record<string, string> = {};
  for (const [owner, address] of await entriesUnder(store, WITHDRAW_ADDRESSES)) withdraw[account(owner)] = account(address);
  const contexts: Record<string, ProtoMessage> = {};
  for (const [id, context] of await decodedUnder(store, REQUEST_CONTEXTS, ctx, S + "RequestContext")) contexts[upperHex(id)] = context;
  const requests: ProtoMessage[] = [];
  for (const [id] of await entriesUnder(store, REQUESTS)) {
    const request = await readRequest(ctx, id);
    if (!request) continue;
    const response = await store.get(responseKey(id));
    requests.push(response ? { request, response: ctx.codec.type(S + "Response").decode(response) } : { request });
  }
  const fees = new Map<string, ProtoMessage[]>();
  for (const [key, coin] of await decodedUnder(store, EARNED_FEES, ctx, "core.base.v1beta1.Coin")) {
    const provider = account(key.subarray(0, ADDRESS_LENGTH));
    fees.set(provider, [...(fees.get(provider) ?? []), coin]);
  }
  const carried = ctx.forZeroHeight ? {} : { requests, earned_fees: [...fees].map(([provider, coins]) => ({ provider, fees: coins })) };
  return {
    params: await readServiceParams(store, ctx),
    definitions: await valuesUnder(store, DEFINITION_PREFIX, ctx, S + "ServiceDefinition"),
    bindings: await valuesUnder(store, BINDINGS, ctx, S + "ServiceBinding"),
    withdraw_addresses: withdraw,
    request_contexts: contexts,
    ...carried,
  };
}
