/**
 * An error a query handler returns, as a gRPC status (what the real module
 * code returns with status.Errorf). The ABCI layer turns it into the log and
 * SDK code of the real app.
 */
export type QueryErrorCode = "NotFound" | "InvalidArgument" | "FailedPrecondition" | "Unauthenticated" | "Unimplemented" | "Internal";

export class QueryError extends Error {
  constructor(
    readonly grpcCode: QueryErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const notFound = (message: string) => new QueryError("NotFound", message);
export const invalidArgument = (message: string) => new QueryError("InvalidArgument", message);
