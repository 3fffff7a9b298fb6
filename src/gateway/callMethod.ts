import type { ProtoMessage } from "../codec/json/renderProto3.js";
import type { RestDeps } from "../http/restDeps.js";
import type { RouteSpec } from "../tables/routeSpec.js";
import { abciQueryError } from "../http/abciErrors.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import { neutralTypeUrl } from "../codec/typeRegistry.js";
import { asksReverse, emulatedReversePage } from "./emulatedReverse.js";

export interface MethodResult {
  response: ProtoMessage;
  /** The height the answer was read at, when the method reads state. */
  height?: number;
}

/**
 * Calls a route's proto method: a service implementation when one is
 * registered for it, otherwise an ABCI query of the node whose path is the
 * full method name and whose data is the protobuf-encoded request.
 */
export async function callMethod(route: RouteSpec, request: ProtoMessage, height: number, deps: RestDeps): Promise<MethodResult> {
  if (deps.executions) deps.executions.count++;
  // the services are written with the neutral names; the node is asked in the profile's
  const service = deps.services.get(neutralTypeUrl(route.methodPath));
  if (service) return service(request, { client: deps.client, codec: deps.codec, height, bech32Prefix: deps.bech32Prefix });
  // in the node's process the query needs no protobuf bytes either way
  const inProcess = await deps.client.queryMessage?.(route.methodPath, request, height);
  if (inProcess) {
    if (inProcess.code !== 0) throw abciQueryError(inProcess, route.methodPath);
    return { response: inProcess.response!, height: inProcess.height };
  }
  const ask = (message: ProtoMessage, at: number) => askNode(route, message, at, deps);
  // a remote node may be v0.41, which ignores pagination.reverse: the gateway pages backwards itself
  if (asksReverse(request)) return emulatedReversePage(route.responseType, request, height, ask);
  return ask(request, height);
}

async function askNode(route: RouteSpec, request: ProtoMessage, height: number, deps: RestDeps): Promise<MethodResult> {
  const data = route.requestType.encode(request).finish();
  const answer = await deps.client.abciQuery(route.methodPath, data, height);
  if (answer.code !== 0) throw abciQueryError(answer, route.methodPath);
  return { response: decodeAnswer(route, answer.value), height: answer.height };
}

function decodeAnswer(route: RouteSpec, value: Uint8Array): ProtoMessage {
  try {
    return route.responseType.decode(value);
  } catch (err) {
    const typeName = route.responseType.fullName.slice(1);
    throw new GatewayError(GrpcCode.Internal, `the node's answer to ${route.methodPath} is not a ${typeName}: ${(err as Error).message}`);
  }
}
