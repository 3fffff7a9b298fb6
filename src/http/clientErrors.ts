import type http from "node:http";
import type { Duplex } from "node:stream";
import { GrpcCode } from "./grpcStatus.js";
import { reportRefusal } from "./refusals.js";

/** What Node's HTTP parser refuses, answered as the gateway's other errors are: a status and a JSON body that says why. */
const ANSWERS: Record<string, { status: string; code: number; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: "408 Request Timeout",
    code: GrpcCode.DeadlineExceeded,
    message: "the request was not received within api.rpc-read-timeout",
  },
  HPE_HEADER_OVERFLOW: {
    status: "431 Request Header Fields Too Large",
    code: GrpcCode.ResourceExhausted,
    message: "the request head is larger than the server reads",
  },
};
const MALFORMED = { status: "400 Bad Request", code: GrpcCode.InvalidArgument, message: "malformed HTTP request" };

/**
 * Replaces Node's bodiless 400/408/431 answers to requests its parser refuses
 * (malformed, too large a head, not received in time) with the gateway's
 * error body; like Node, it answers only on a connection that has not been
 * answered yet, and then closes it.
 */
export function answerClientErrors(server: http.Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (socket.writable && (socket as Duplex & { bytesWritten?: number }).bytesWritten === 0) {
      const answer = ANSWERS[err.code ?? ""] ?? MALFORMED;
      reportRefusal(server, parseInt(answer.status, 10));
      const body = JSON.stringify({
        code: answer.code,
        message: answer.code === MALFORMED.code ? `${answer.message}: ${err.message}` : answer.message,
        details: [],
      });
      socket.write(
        `HTTP/1.1 ${answer.status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });
}
