import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import type { KVReader } from "../../store/kv.js";
import type { ModuleContext } from "../nodeModule.js";

/**
 * Reads for the modules' ExportGenesis: a whole prefix or one key, decoded with a proto type.
 * An export reads every entry once, so the entries are gathered in key order (the order the
 * real modules' iterators give).
 */
export async function entriesUnder(store: KVReader, prefix: Uint8Array): Promise<Array<[Uint8Array, Uint8Array]>> {
  const out: Array<[Uint8Array, Uint8Array]> = [];
  for await (const entry of store.iterate(prefix)) out.push(entry);
  return out;
}

/** Every value under `prefix` decoded as `typeName`, with its key relative to the prefix. */
export async function decodedUnder(store: KVReader, prefix: Uint8Array, ctx: ModuleContext, typeName: string): Promise<Array<[Uint8Array, ProtoMessage]>> {
  const type = ctx.codec.type(typeName);
  return (await entriesUnder(store, prefix)).map(([key, value]) => [key, type.decode(value) as unknown as ProtoMessage]);
}

/** Just the decoded values under `prefix`. */
export async function valuesUnder(store: KVReader, prefix: Uint8Array, ctx: ModuleContext, typeName: string): Promise<ProtoMessage[]> {
  return (await decodedUnder(store, prefix, ctx, typeName)).map(([, value]) => value);
}

/** The value at `key` decoded as `typeName`; an empty message when the key is not set. */
export async function decodedAt(store: KVReader, key: Uint8Array, ctx: ModuleContext, typeName: string): Promise<ProtoMessage> {
  const bytes = await store.get(key);
  return bytes ? ctx.codec.type(typeName).decode(bytes) : {};
}
