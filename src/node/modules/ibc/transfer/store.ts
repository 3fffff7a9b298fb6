import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { concatBytes } from "../../../store/keyEncoding.js";
import type { KVReader } from "../../../store/kv.js";
import type { ModuleContext } from "../../nodeModule.js";
import { MODULE_PARAMS_KEY } from "../../shared/paramsKey.js";

/**
 * Store layout of the "transfer" store (ICS-20 keys of SDK v0.41, plus the params the real app keeps in x/params):
 *   MODULE_PARAMS_KEY → Params (v0.41: the params store); 0x01 → the bound port id; 0x02 | SHA-256 of the full denom path → DenomTrace.
 */
export const PARAMS_KEY = MODULE_PARAMS_KEY;
export const PORT_KEY = Uint8Array.of(0x01);
export const DENOM_TRACE_PREFIX = Uint8Array.of(0x02);

export const denomTraceKey = (hash: Uint8Array) => concatBytes(DENOM_TRACE_PREFIX, hash);

export async function readTransferParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(PARAMS_KEY);
  return bytes ? ctx.codec.type("ibc.applications.transfer.v1.Params").decode(bytes) : {};
}

export async function getDenomTrace(store: KVReader, hash: Uint8Array, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(denomTraceKey(hash));
  return bytes ? ctx.codec.type("ibc.applications.transfer.v1.DenomTrace").decode(bytes) : undefined;
}
