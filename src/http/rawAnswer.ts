import http from "node:http";
import type { Duplex } from "node:stream";

/** An answer the gateway gives outside Koa: an HTTP status, and the gateway's error body with a gRPC code. */
export interface RawAnswer {
  status: number;
  code: number;
  message: string;
  /** Seconds a client should wait before it asks again (503, 429). */
  retryAfter?: number;
}

/** The gateway's error body of an answer. */
function errorBodyText(answer: RawAnswer): string {
  return JSON.stringify({ code: answer.code, message: answer.message, details: [] });
}

/**
 * Writes `answer` on a socket whose request Node's HTTP server did not (or
 * could not) hand to the app, then ends the connection. What the client still
 * sends is read and dropped, so that closing does not reset the connection
 * before the client has read the answer; a client that keeps sending is cut a
 * second later.
 */
export function writeRawAnswerAndClose(socket: Duplex, answer: RawAnswer): void {
  const body = errorBodyText(answer);
  const retry = answer.retryAfter === undefined ? "" : `Retry-After: ${answer.retryAfter}\r\n`;
  const timer = setTimeout(() => socket.destroy(), 1000);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.resume();
  socket.end(
    `HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status]}\r\nContent-Type: application/json\r\n${retry}Connection: close\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Answers a request the app will not see (the connection gate's refusals) with the error body, and closes its connection. */
export function writeResponseAndClose(response: http.ServerResponse, answer: RawAnswer): void {
  response.shouldKeepAlive = false;
  writeAnswer(response, answer);
}

/** Answers a request the app will not see with the error body; the connection stays open for the next request. */
export function writeAnswer(response: http.ServerResponse, answer: RawAnswer): void {
  const body = errorBodyText(answer);
  response.writeHead(answer.status, {
    "Content-Type": "application/json",
    ...(answer.retryAfter === undefined ? {} : { "Retry-After": String(answer.retryAfter) }),
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
}
