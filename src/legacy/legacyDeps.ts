import type protobuf from "protobufjs";
import { AminoJsonRenderer } from "../codec/amino/aminoJson.js";
import { AminoJsonParser } from "../codec/amino/aminoJsonParser.js";
import { AminoBinaryCodec } from "../codec/amino/aminoBinary.js";
import type { ProtoMessage } from "../codec/json/renderProto3.js";
import { abciQueryError } from "../http/abciErrors.js";
import type { RestDeps } from "../http/restDeps.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import type { AminoTransforms } from "../tables/aminoTransforms.js";
import { neutralTypeUrl, profileTypeUrl } from "../codec/typeRegistry.js";

/** What the legacy family needs: the gateway's node access plus the amino codecs. */
export interface LegacyDeps extends RestDeps {
  amino: AminoJsonRenderer;
  aminoParser: AminoJsonParser;
  aminoBinary: AminoBinaryCodec;
}

export function legacyDeps(deps: RestDeps, transforms: AminoTransforms): LegacyDeps {
  return {
    ...deps,
    amino: new AminoJsonRenderer(deps.codec.root, transforms),
    aminoParser: new AminoJsonParser(deps.codec.root, transforms),
    aminoBinary: new AminoBinaryCodec(deps.codec.root, transforms),
  };
}

/** A proto method's answer and the height it was read at (0 when the method does not say). */
export interface Answer {
  type: protobuf.Type;
  msg: ProtoMessage;
  height: number;
}

/**
 * Calls a proto method as the gateway does: a service implementation when
 * there is one (tx, consensus), else an ABCI query of the node.
 */
export async function invoke(
  call: { methodPath: string; requestType: protobuf.Type; responseType: protobuf.Type },
  request: ProtoMessage,
  height: number,
  deps: LegacyDeps,
): Promise<Answer> {
  if (deps.executions) deps.executions.count++;
  // the services are written with the neutral names; the node is asked in the profile's
  const methodPath = profileTypeUrl(call.methodPath);
  const service = deps.services.get(neutralTypeUrl(methodPath));
  if (service) {
    const result = await service(request, { client: deps.client, codec: deps.codec, height, bech32Prefix: deps.bech32Prefix });
    return { type: call.responseType, msg: result.response, height: result.height ?? 0 };
  }
  const answer = await deps.client.abciQuery(methodPath, call.requestType.encode(call.requestType.fromObject(request)).finish(), height);
  if (answer.code !== 0) throw abciQueryError(answer, methodPath);
  try {
    return { type: call.responseType, msg: call.responseType.decode(answer.value) as unknown as ProtoMessage, height: answer.height };
  } catch (err) {
    throw new GatewayError(GrpcCode.Internal, `the node's answer to ${methodPath} is not a ${call.responseType.fullName.slice(1)}: ${(err as Error).message}`);
  }
}
