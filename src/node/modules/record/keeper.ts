import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVStore } from "../../store/kv.js";
import { decodeUInt64Value, encodeUInt64Value } from "../../store/wrapperValues.js";
import type { ModuleContext } from "../nodeModule.js";
import { COUNTER_KEY, recordId, recordKey } from "./keys.js";

/**
 * AddRecord: stores the record under its id, advances the counter, and gives the id. The counter
 * is a UInt32Value, whose wire form is UInt64Value's (field 1, a varint).
 */
export async function addRecord(store: KVStore, record: ProtoMessage, ctx: ModuleContext): Promise<Uint8Array> {
  const bytes = ctx.codec.type("extmod.record.Record").encode(record).finish();
  const stored = await store.get(COUNTER_KEY);
  const counter = stored ? Number(decodeUInt64Value(stored)) : 0;
  const id = recordId(bytes, counter);
  store.set(recordKey(id), bytes);
  store.set(COUNTER_KEY, encodeUInt64Value(BigInt(counter + 1)));
  return id;
}
