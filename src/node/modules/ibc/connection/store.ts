import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import type { KVReader } from "../../../store/kv.js";
import type { ModuleContext } from "../../nodeModule.js";
import { connectionKey } from "../host/hostPaths.js";

/** The ConnectionEnd of a connection in the "ibc" store, if it exists. */
export async function getConnection(store: KVReader, connectionId: string, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(connectionKey(connectionId));
  return bytes ? ctx.codec.type("ibc.core.connection.v1.ConnectionEnd").decode(bytes) : undefined;
}
