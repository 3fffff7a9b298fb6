/** gRPC status codes, and the HTTP status grpc-gateway gives each (runtime.HTTPStatusFromCode). */
export const GrpcCode = {
  OK: 0,
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;

export type GrpcCodeName = keyof typeof GrpcCode;

const HTTP_STATUS: Record<number, number> = {
  0: 200,
  1: 408,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

function httpStatusOf(code: number): number {
  return HTTP_STATUS[code] ?? 500;
}

/** An error answered with the gateway family's body {"code", "message", "details"}. */
export class GatewayError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Overrides the status of the code table (413 for an oversized body). */
    readonly httpStatus: number = httpStatusOf(code),
    /** The body's details (google.protobuf.Any JSON objects); none by default. */
    readonly details: unknown[] = [],
  ) {
    super(message);
  }
}
