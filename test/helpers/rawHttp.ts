import http from "node:http";
import net from "node:net";

export interface FreshAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
  /** From the request to the end of the answer. */
  ms: number;
}

/**
 * One request on a connection of its own (no keep-alive pool), so that a test
 * controls exactly which connections the server sees. Rejects on a reset.
 */
export function freshRequest(
  base: string,
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<FreshAnswer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(path, base),
      { method: init.method ?? "GET", agent: false, headers: { accept: "application/json", ...init.headers } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("error", reject);
        response.on("end", () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode!, headers: response.headers, text, body, ms: Date.now() - started });
        });
      },
    );
    request.on("error", reject);
    request.end(init.body);
  });
}

export interface RawSocket {
  socket: net.Socket;
  connected: Promise<void>;
  /** When the server closed it: how long after connecting, and what it had sent. */
  closed: Promise<{ afterMs: number; received: string; error?: string }>;
  /** Writes `text` one character every `everyMs` until the socket closes. */
  trickle(text: string, everyMs: number): void;
}

/** A TCP connection to the server that sends only what the test writes. */
export function rawSocket(base: string): RawSocket {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  let connectedAt = Date.now();
  let received = "";
  let error: string | undefined;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (received += chunk));
  socket.on("error", (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
  const connected = new Promise<void>((resolve) =>
    socket.once("connect", () => {
      connectedAt = Date.now();
      resolve();
    }),
  );
  const closed = new Promise<{ afterMs: number; received: string; error?: string }>((resolve) =>
    socket.once("close", () => resolve({ afterMs: Date.now() - connectedAt, received, error })),
  );
  return {
    socket,
    connected,
    closed,
    trickle(text, everyMs) {
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || socket.writableEnded) return clearInterval(timer);
        socket.write(text[i++ % text.length]!);
      }, everyMs);
      socket.once("close", () => clearInterval(timer));
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Splits what a server sent on one connection into its responses (bodies
 * framed by Content-Length or chunked); a response cut short is left out.
 */
export function splitResponses(received: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = received;
  for (;;) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) return responses;
    const [statusLine, ...lines] = rest.slice(0, headEnd).split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
    rest = rest.slice(headEnd + 4);
    let body = "";
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const sizeEnd = rest.indexOf("\r\n");
        if (sizeEnd < 0) return responses;
        const size = parseInt(rest.slice(0, sizeEnd), 16);
        if (rest.length < sizeEnd + 2 + size + 2) return responses;
        body += rest.slice(sizeEnd + 2, sizeEnd + 2 + size);
        rest = rest.slice(sizeEnd + 2 + size + 2);
        if (size === 0) break;
      }
    } else {
      const length = Number(headers["content-length"] ?? 0);
      if (Buffer.byteLength(rest) < length) return responses;
      body = Buffer.from(rest).subarray(0, length).toString();
      rest = Buffer.from(rest).subarray(length).toString();
    }
    responses.push({ status, headers, body });
  }
}
