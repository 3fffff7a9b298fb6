import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { profileTypeUrl } from "../codec/typeRegistry.js";
import { abciQueryError } from "../http/abciErrors.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import type { ServiceContext } from "./serviceMethod.js";
import { asksReverse, emulatedReversePage } from "../gateway/emulatedReverse.js";

export interface QueryAnswer {
  response: ProtoMessage;
  height: number;
}

/**
 * Asks the node one of v0.41's module queries (a neutral method path such as
 * "/hubmod.mint.Query/Params"), so a service that derives a newer SDK's answer
 * reads what a real v0.41 node serves too.
 */
export async function askModule(
  context: ServiceContext,
  methodPath: string,
  types: [request: string, response: string],
  request: ProtoMessage = {},
): Promise<QueryAnswer> {
  // a remote node may be v0.41, which ignores pagination.reverse: paged backwards here (the node's own process honours it)
  if (asksReverse(request) && !context.client.queryMessage) {
    const page = await emulatedReversePage(context.codec.type(types[1]), request, context.height, (message, height) =>
      askModule({ ...context, height }, methodPath, types, message),
    );
    return { response: page.response, height: page.height ?? context.height };
  }
  const data = context.codec.type(types[0]).encode(request).finish();
  const answer = await context.client.abciQuery(profileTypeUrl(methodPath), data, context.height);
  if (answer.code !== 0) throw abciQueryError(answer, methodPath);
  try {
    return { response: context.codec.type(types[1]).decode(answer.value) as unknown as ProtoMessage, height: answer.height };
  } catch (err) {
    throw new GatewayError(GrpcCode.Internal, `the node's answer to ${methodPath} is not a ${types[1]}: ${(err as Error).message}`);
  }
}

/** A raw store read (`/store/<store>/key`), as v0.41 nodes answer it; undefined when the key is not set. */
export async function readStoreKey(context: ServiceContext, store: string, key: Uint8Array): Promise<{ value?: Uint8Array; height: number }> {
  const path = `/store/${store}/key`;
  const answer = await context.client.abciQuery(path, key, context.height);
  if (answer.code !== 0) throw abciQueryError(answer, path);
  return { value: answer.value.length > 0 ? answer.value : undefined, height: answer.height };
}
