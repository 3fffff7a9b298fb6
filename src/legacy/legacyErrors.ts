import { NodeRpcError, NodeUnavailableError } from "../client/chainClient.js";
import { NoAminoEncodingError } from "../codec/amino/aminoJson.js";
import { AminoJsonError, UnknownAminoTypeError } from "../codec/amino/aminoJsonParser.js";
import { AminoBinaryError } from "../codec/amino/aminoBinary.js";
import { StdTxConversionError } from "../codec/amino/stdTx.js";
import { UnknownTypeUrlError } from "../codec/typeRegistry.js";
import { GatewayError, GrpcCode } from "../http/grpcStatus.js";
import { keptHeightFields, keptHeightsOf } from "../http/heightRange.js";
import type { ErrorKind, ErrorRule } from "../tables/legacyRouteSpec.js";
import { fillText } from "../tables/legacyTemplates.js";

/** An error answered with the legacy family's body {"error": "..."}. */
export class LegacyError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly kind: ErrorKind = status === 404 ? "not-found" : status < 500 ? "bad-request" : "node",
    /** A failure no rule expects (a bug): logged by the router. */
    readonly unexpected = false,
    /** Fields the body carries beside "error" (a height not available: earliest_height, latest_height). */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** HTTP status of a gRPC code, for the legacy family (the real v0.41 answered 500 for most; docs/design/adr/0001-where-chain-rest-does-better.md says why this differs). */
const STATUS: Partial<Record<number, number>> = {
  [GrpcCode.InvalidArgument]: 400,
  [GrpcCode.FailedPrecondition]: 400,
  [GrpcCode.OutOfRange]: 400,
  [GrpcCode.NotFound]: 404,
  [GrpcCode.Unauthenticated]: 401,
  [GrpcCode.PermissionDenied]: 403,
  [GrpcCode.Unimplemented]: 501,
  [GrpcCode.Unavailable]: 503,
};

/** Any failure → a LegacyError with the status and kind the route's rules match on. */
export function asLegacyError(err: unknown): LegacyError {
  if (err instanceof LegacyError) return err;
  if (err instanceof NoAminoEncodingError || err instanceof UnknownAminoTypeError) return new LegacyError(500, err.message, "no-amino-encoding");
  if (err instanceof AminoJsonError || err instanceof AminoBinaryError) return new LegacyError(400, err.message, "bad-tx");
  if (err instanceof StdTxConversionError) return new LegacyError(500, err.message, "node");
  if (err instanceof GatewayError) {
    const message = err.message.replace(/^rpc error: code = \w+ desc = /, "");
    const status = err.httpStatus === 413 ? 413 : (STATUS[err.code] ?? 500);
    const kind: ErrorKind = err.code === GrpcCode.NotFound ? "not-found" : status < 500 ? "bad-request" : "node";
    const kept = keptHeightsOf(err.message);
    return new LegacyError(status, message, kind, false, err.details.length > 0 && kept ? keptHeightFields(kept) : {});
  }
  if (err instanceof NodeUnavailableError) return new LegacyError(503, err.message, "node");
  if (err instanceof NodeRpcError) return new LegacyError(500, err.message, "node");
  if (err instanceof UnknownTypeUrlError) return new LegacyError(500, `cannot render the response: ${err.message}`, "node");
  return new LegacyError(500, `internal error: ${(err as Error)?.message ?? String(err)}`, "node", true);
}

/** What a route answers for an error: the first of its rules that matches decides, else the error as it is. */
export type ErrorOutcome = { kind: "error"; status: number; message: string } | { kind: "result"; value: unknown };

export function applyErrorRules(rules: ErrorRule[], error: LegacyError, values: Record<string, string | undefined>): ErrorOutcome {
  for (const rule of rules) {
    if (rule.when && rule.when !== error.kind) continue;
    if (rule.match && !rule.match.test(error.message)) continue;
    if (rule.result) return { kind: "result", value: rule.result.value };
    return {
      kind: "error",
      status: rule.status ?? error.status,
      message: rule.error ? fillText(rule.error, { ...values, message: error.message }) : error.message,
    };
  }
  return { kind: "error", status: error.status, message: error.message };
}
