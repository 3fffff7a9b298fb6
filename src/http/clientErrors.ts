import type http from "node:http";
import type { Duplex } from "node:stream";
import { GrpcCode } from "./grpcStatus.js";
import { writeRawAnswerAndClose, writeResponseAndClose, type RawAnswer } from "./rawAnswer.js";
import { reportRefusal } from "./refusals.js";

/** What Node's HTTP parser refuses, answered as the gateway's other errors are: a status and a JSON body that says why. */
const ANSWERS: Record<string, RawAnswer> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: GrpcCode.DeadlineExceeded, message: "the request was not received within api.rpc-read-timeout" },
  HPE_HEADER_OVERFLOW: { status: 431, code: GrpcCode.ResourceExhausted, message: "the request head is larger than the server reads" },
};

function answerFor(err: NodeJS.ErrnoException): RawAnswer {
  return ANSWERS[err.code ?? ""] ?? { status: 400, code: GrpcCode.InvalidArgument, message: `malformed HTTP request: ${err.message}` };
}

/** The responses a connection owes, in the order of their requests. */
export type ResponsesOf = (socket: Duplex) => readonly http.ServerResponse[];

/**
 * Replaces Node's bodiless 400/408/431 answers to requests its parser refuses
 * (malformed, too large a head, not received in time) with the gateway's error
 * body, and keeps answers in request order (RFC 9112 §9.3.2).
 *
 * Node emits "clientError" as soon as its parser fails, even when requests
 * before the bad one (pipelined in the same packet, or on a kept-alive
 * connection) are still being answered; its default then writes its 400 at
 * once and destroys the socket, so that those answers are lost or follow the
 * 400. Here the bad request's answer waits until every earlier request whose
 * whole body arrived has been answered, then closes the connection. A request
 * whose body had not all arrived is the one the parser failed on (or that timed
 * out): its own answer is this one, unless the app has already begun another.
 * The parser reports its error again for every later packet; only the first
 * report is answered.
 */
export function answerClientErrors(server: http.Server, responsesOf: ResponsesOf): void {
  const failed = new WeakSet<Duplex>();
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (failed.has(socket)) return;
    failed.add(socket);
    // A connection that timed out without sending a byte is closed unanswered, as Go's server
    // closes it: writing to thousands of silent connections that time out together held the
    // event loop for seconds.
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT" && (socket as Duplex & { bytesRead?: number }).bytesRead === 0) return void socket.destroy();
    const answer = answerFor(err);
    reportRefusal(server, answer.status);
    answerAfterEarlierRequests(socket, responsesOf, answer);
  });
}

/** Writes `answer` and closes the connection once every request before it whose body arrived has been answered. */
function answerAfterEarlierRequests(socket: Duplex, responsesOf: ResponsesOf, answer: RawAnswer): void {
  const owed = responsesOf(socket);
  const earlier = owed.find((response) => response.req.complete);
  if (earlier) {
    earlier.once("close", () => answerAfterEarlierRequests(socket, responsesOf, answer));
    return;
  }
  // the app has begun answering the unfinished request itself: no room for a second answer
  if (owed.some((response) => response.headersSent) || !socket.writable) socket.destroy();
  else writeRawAnswerAndClose(socket, answer);
}

/**
 * Request heads that Node's parser lets through and Go's server (which the
 * real node runs) refuses: an HTTP/1.1 request without a Host header or with
 * two (Node's `requireHostHeader` answers the first with a bare 400 of its own
 * and lets the second through), and an HTTP version other than 1.x (Node reads
 * `GET /` as HTTP/0.9 and accepts HTTP/2.0 in an HTTP/1 request line). They are
 * answered here with the error body, and their connection closes.
 */
export function refuseBadHeads(next: http.RequestListener): http.RequestListener {
  return (request, response) => {
    const refusal = headRefusal(request);
    if (refusal === undefined) return next(request, response);
    request.resume();
    writeResponseAndClose(response, refusal);
  };
}

function headRefusal(request: http.IncomingMessage): RawAnswer | undefined {
  if (request.httpVersionMajor !== 1) {
    return request.httpVersionMajor === 0
      ? { status: 400, code: GrpcCode.InvalidArgument, message: "malformed HTTP request: no HTTP version in the request line" }
      : { status: 505, code: GrpcCode.Unimplemented, message: `unsupported protocol version HTTP/${request.httpVersion}` };
  }
  if (request.httpVersionMinor < 1) return undefined;
  let hosts = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i]!.toLowerCase() === "host") hosts++;
  if (hosts === 1) return undefined;
  return { status: 400, code: GrpcCode.InvalidArgument, message: hosts === 0 ? "missing required Host header" : "too many Host headers" };
}

/** CONNECT (a tunnel) is no method of the gateway: 501 with the error body, as for any unknown verb, in its turn. Node would close silently. */
export function refuseConnect(server: http.Server, responsesOf: ResponsesOf): void {
  server.on("connect", (_request: http.IncomingMessage, socket: Duplex) =>
    answerAfterEarlierRequests(socket, responsesOf, { status: 501, code: GrpcCode.Unimplemented, message: "Not Implemented" }),
  );
}
