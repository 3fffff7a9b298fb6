import type { AbciQueryResponse } from "../../client/chainClient.js";
import { QueryError } from "./queryError.js";
import { processLogger } from "../../telemetry/processLogger.js";

/** SDK error codes (codespace "sdk") with their registered descriptions. */
export const SdkError = {
  txDecode: { code: 2, text: "tx parse error" },
  unauthorized: { code: 4, text: "unauthorized" },
  unknownRequest: { code: 6, text: "unknown request" },
  invalidRequest: { code: 18, text: "invalid request" },
  keyNotFound: { code: 22, text: "key not found" },
  invalidHeight: { code: 26, text: "invalid height" },
  jsonUnmarshal: { code: 36, text: "failed to unmarshal JSON bytes" },
} as const;

type Sdk = (typeof SdkError)[keyof typeof SdkError];

/** gRPCErrorToSDKError of the real app: the status becomes an SDK code, its text the log prefix. */
const BY_GRPC: Record<string, Sdk> = {
  NotFound: SdkError.keyNotFound,
  InvalidArgument: SdkError.invalidRequest,
  FailedPrecondition: SdkError.invalidRequest,
  Unauthenticated: SdkError.unauthorized,
};

export function abciError(error: Sdk, log: string, height: number): AbciQueryResponse {
  return { code: error.code, codespace: "sdk", log: `${log}: ${error.text}`, value: new Uint8Array(), height };
}

/** A handler failure as the real app reports it: "rpc error: code = NotFound desc = ...: key not found". */
export function abciQueryFailure(err: unknown, height: number): AbciQueryResponse {
  if (err instanceof QueryError) {
    const sdk = BY_GRPC[err.grpcCode] ?? SdkError.unknownRequest;
    return abciError(sdk, `rpc error: code = ${err.grpcCode} desc = ${err.message}`, height);
  }
  // Anything else is a fault of the node, not of the request (the real app redacts it to "internal").
  processLogger().error({ err }, "[node] query handler failed");
  return { code: 1, codespace: "undefined", log: `internal: ${(err as Error)?.message ?? String(err)}`, value: new Uint8Array(), height };
}
