import type { MessageQueryResponse } from "../client/chainClient.js";
import { GatewayError, GrpcCode, type GrpcCodeName } from "./grpcStatus.js";
import { heightNotAvailableDetail, keptHeightsOf } from "./heightRange.js";

/**
 * Turns a failed ABCI query into the gRPC status the client sees. The real
 * v0.41 gateway answered every such failure 500/Unknown; we recover the
 * status the handler meant (as SDK v0.42.4 later did): first from the
 * "rpc error: code = X desc = ..." text the app writes into the log, else from
 * the SDK error code.
 */
export function abciQueryError(response: MessageQueryResponse, methodPath: string): GatewayError {
  const log = response.log || `query failed with code ${response.code}`;
  const stated = /^rpc error: code = (\w+) desc = /.exec(log)?.[1] as GrpcCodeName | undefined;
  if (stated && stated in GrpcCode) return new GatewayError(GrpcCode[stated], log);
  if (response.codespace === "sdk") {
    switch (response.code) {
      case 6:
        if (log.startsWith("unknown query path")) return new GatewayError(GrpcCode.Unimplemented, `${methodPath} is not served by the node: ${log}`);
        break;
      case 4:
        return new GatewayError(GrpcCode.Unauthenticated, log);
      case 18:
      case 26: {
        // a height not kept: ErrInvalidHeight, or (the SDK's baseapp) ErrInvalidRequest "failed to load state at height"
        const kept = keptHeightsOf(log);
        return new GatewayError(GrpcCode.InvalidArgument, log, undefined, kept ? [heightNotAvailableDetail(kept)] : []);
      }
      case 22:
        return new GatewayError(GrpcCode.NotFound, log);
    }
  }
  return new GatewayError(GrpcCode.Unknown, log);
}
