import type { ProtoMessage } from "../../../../codec/json/renderProto3.js";
import { fieldText } from "../../../../codec/fieldText.js";
import type { KVReader } from "../../../store/kv.js";
import type { ModuleContext } from "../../nodeModule.js";
import { heightOf, type Height } from "../host/heights.js";
import { CLIENT_PARAMS_KEY, clientStateKey, consensusStateKey } from "../host/hostPaths.js";

/** Reads of the ICS-02 client state in the "ibc" store (layout in ../host/hostPaths.ts). */

/** The packed client state of a client, if it exists. */
export async function getClientState(store: KVReader, clientId: string, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(clientStateKey(clientId));
  return bytes ? ctx.codec.type("google.protobuf.Any").decode(bytes) : undefined;
}

/** The packed consensus state of a client at a height, if it exists. */
export async function getConsensusState(store: KVReader, clientId: string, height: Height, ctx: ModuleContext): Promise<ProtoMessage | undefined> {
  const bytes = await store.get(consensusStateKey(clientId, height));
  return bytes ? ctx.codec.type("google.protobuf.Any").decode(bytes) : undefined;
}

/** The height of a request's revision_number and revision_height fields. */
export function requestHeight(request: ProtoMessage) {
  return heightOf(BigInt(fieldText(request.revision_number, "0")), BigInt(fieldText(request.revision_height, "0")));
}

export async function readClientParams(store: KVReader, ctx: ModuleContext): Promise<ProtoMessage> {
  const bytes = await store.get(CLIENT_PARAMS_KEY);
  return bytes ? ctx.codec.type("ibc.core.client.v1.Params").decode(bytes) : {};
}
