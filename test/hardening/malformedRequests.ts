/**
 * Requests that Go's HTTP server (which the real node runs) refuses, each a
 * row: its bytes and the answer the gateway gives. Most are refused by Node's
 * parser (llhttp, strict mode); the Host, version and CONNECT rows are let
 * through by the parser and refused by the server (src/http/clientErrors.ts).
 * Not here, because Node's parser reads them leniently and the server never
 * sees the difference: `GET  / HTTP/1.1` (two spaces) is read as `GET /`.
 */
export interface MalformedRequest {
  name: string;
  bytes: string;
  status: number;
  /** gRPC code of the error body. */
  code: number;
}

const SIMULATE = "POST /core/tx/v1beta1/simulate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
const CHUNKED = `${SIMULATE}Transfer-Encoding: chunked\r\n\r\n`;
const get = (headers: string) => `GET /core/bank/v1beta1/params HTTP/1.1\r\n${headers}\r\n`;
const requestLine = (line: string) => `${line}\r\nHost: x\r\n\r\n`;

const bad = (name: string, bytes: string): MalformedRequest => ({ name, bytes, status: 400, code: 3 });

export const MALFORMED_REQUESTS: MalformedRequest[] = [
  // framing of the body: the request smuggling forms
  bad("Content-Length and Transfer-Encoding: chunked", `${SIMULATE}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`),
  bad("Transfer-Encoding: chunked before Content-Length", `${SIMULATE}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`),
  bad("two different Content-Lengths", `${SIMULATE}Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}`),
  bad("two equal Content-Lengths", `${SIMULATE}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}`),
  bad("a Content-Length list", `${SIMULATE}Content-Length: 2, 2\r\n\r\n{}`),
  bad("a Content-Length that is no number", `${SIMULATE}Content-Length: abc\r\n\r\n{}`),
  bad("a negative Content-Length", `${SIMULATE}Content-Length: -1\r\n\r\n{}`),
  bad("a Content-Length with a plus sign", `${SIMULATE}Content-Length: +2\r\n\r\n{}`),
  bad("a Content-Length of two numbers", `${SIMULATE}Content-Length: 1 1\r\n\r\n{}`),
  bad("a Content-Length past 2^64", `${SIMULATE}Content-Length: 99999999999999999999999\r\n\r\n{}`),
  bad("a hexadecimal Content-Length", `${SIMULATE}Content-Length: 0x2\r\n\r\n{}`),
  bad("Transfer-Encoding: gzip (chunked not last)", `${SIMULATE}Transfer-Encoding: gzip\r\n\r\n{}`),
  bad("Transfer-Encoding: chunked, gzip", `${SIMULATE}Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n`),
  bad("Transfer-Encoding: xchunked", `${SIMULATE}Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n`),
  bad("Transfer-Encoding: chunked twice", `${SIMULATE}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`),
  bad("a chunk size that is no hex number", `${CHUNKED}zz\r\n{}\r\n0\r\n\r\n`),
  bad("a chunk size past 2^64", `${CHUNKED}fffffffffffffffffff\r\n{}\r\n0\r\n\r\n`),
  bad("a negative chunk size", `${CHUNKED}-2\r\n{}\r\n0\r\n\r\n`),
  bad("chunk data without its CRLF", `${CHUNKED}2\r\n{}X0\r\n\r\n`),
  bad("a control character in a chunk extension", `${CHUNKED}2;\x01\r\n{}\r\n0\r\n\r\n`),
  bad("a trailer line that is no header", `${CHUNKED}0\r\nnot a header\r\n\r\n`),
  // header fields
  bad("a space before the colon", get("Host : x\r\n")),
  bad("a space before the colon of Transfer-Encoding", `${SIMULATE}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n`),
  bad("a header name with a parenthesis", get("Host: x\r\nFo(o: x\r\n")),
  bad("an empty header name", get("Host: x\r\n: x\r\n")),
  bad("a header line without a colon", get("Host: x\r\nFoo\r\n")),
  bad("a NUL in a header value", get("Host: x\r\nX-A: a\x00b\r\n")),
  bad("a DEL in a header value", get("Host: x\r\nX-A: a\x7fb\r\n")),
  bad("a control character in a header value", get("Host: x\r\nX-A: a\x01b\r\n")),
  bad("an obsolete folded header line", get("Host: x\r\nX-A: a\r\n b\r\n")),
  bad("a header line ended by a bare LF", get("Host: x\nX-A: b\r\n")),
  bad("no Host header in HTTP/1.1", get("")),
  bad("two Host headers", get("Host: x\r\nHost: y\r\n")),
  // the request line
  bad("a request line ended by a bare LF", "GET /core/bank/v1beta1/params HTTP/1.1\nHost: x\n\n"),
  bad("a bare CR in the request line", "GET /core/bank/v1beta1/params HTTP/1.1\rHost: x\r\n\r\n"),
  bad("a method with a parenthesis", requestLine("G(ET /core/bank/v1beta1/params HTTP/1.1")),
  bad("a lower-case method", requestLine("get /core/bank/v1beta1/params HTTP/1.1")),
  bad("an unknown method", requestLine("FROB /core/bank/v1beta1/params HTTP/1.1")),
  bad("a space in the target", requestLine("GET /core/bank/v1beta1/params x HTTP/1.1")),
  bad("a control character in the target", requestLine("GET /core/bank\x01/v1beta1/params HTTP/1.1")),
  bad("a NUL in the target", requestLine("GET /core/bank\x00 HTTP/1.1")),
  bad("HTTP/1.2", requestLine("GET /core/bank/v1beta1/params HTTP/1.2")),
  bad("HTTP/3.0", requestLine("GET /core/bank/v1beta1/params HTTP/3.0")),
  bad("a version with a trailing letter", requestLine("GET /core/bank/v1beta1/params HTTP/1.1x")),
  bad("a lower-case protocol name", requestLine("GET /core/bank/v1beta1/params http/1.1")),
  bad("no version (an HTTP/0.9 request line)", requestLine("GET /core/bank/v1beta1/params")),
  bad("not HTTP at all", "NOT HTTP AT ALL\r\n\r\n"),
  { name: "HTTP/2.0 in an HTTP/1 request line", bytes: requestLine("GET /core/bank/v1beta1/params HTTP/2.0"), status: 505, code: 12 },
  { name: "CONNECT", bytes: "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", status: 501, code: 12 },
  // sizes
  { name: "a head over 16 kB", bytes: get(`Host: x\r\nX-Big: ${"a".repeat(20_000)}\r\n`), status: 431, code: 8 },
  { name: "a target over 16 kB", bytes: requestLine(`GET /${"a".repeat(20_000)} HTTP/1.1`), status: 431, code: 8 },
];
