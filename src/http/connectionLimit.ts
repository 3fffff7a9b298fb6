import type http from "node:http";
import net from "node:net";
import { GrpcCode } from "./grpcStatus.js";
import { reportRefusal } from "./refusals.js";

export interface ConnectionLimit {
  /** api.max-open-connections (0 = no limit). */
  maxConnections: number;
  /** How long a connection over the limit may wait for a place (api.rpc-read-timeout; undefined = no limit). */
  maxWaitMs?: number;
}

/** A connection that has not sent a whole request head this long after it got its place gives it up to one that waits. */
const SILENT_GRACE_MS = 1000;
/** While connections wait, this often the open ones are looked over for places to free. */
const SWEEP_MS = 250;

interface Place {
  socket: net.Socket;
  since: number;
  /** Responses being answered on this connection. */
  inFlight: Set<http.ServerResponse>;
  /** It has been answered at least once (so, with nothing in flight, it idles between requests). */
  served: boolean;
}

interface Waiter {
  socket: net.Socket;
  timer?: NodeJS.Timeout;
  gaveUp: () => void;
}

export interface GatedListener {
  listener: net.Server;
  /** Stops accepting: waiting connections are answered 503, idle ones closed, answers in flight end their connection. */
  shutDown(): void;
  /** Connections open (handed to the HTTP server) and waiting for a place, for the metrics. */
  counts(): { open: number; waiting: number };
}

/**
 * api.max-open-connections, as the real server's netutil.LimitListener kept
 * it — a connection over the limit waits (unread) for an open one to close,
 * instead of being reset — with two differences that keep a waiting client
 * from waiting on nothing:
 * - while connections wait, the open ones that are not being answered give up
 *   their place: connections idling between keep-alive requests, and those
 *   that have not sent a whole request head within a second (slow or silent
 *   clients); answers in flight end their connection;
 * - a connection that waits longer than the read timeout, or that finds as
 *   many others already waiting as the limit, is answered 503 with the
 *   gateway's error body and closed.
 * The HTTP server never listens itself: this listener hands it each admitted socket.
 */
export function gatedListener(server: http.Server, limit: ConnectionLimit): GatedListener {
  const max = limit.maxConnections > 0 ? limit.maxConnections : Infinity;
  const open = new Map<net.Socket, Place>();
  const waiting: Waiter[] = [];
  let sweep: NodeJS.Timeout | undefined;
  let closing = false;

  const refuse = (socket: net.Socket, message: string) => {
    reportRefusal(server, 503);
    busy(socket, message);
  };
  const ignoreError = () => {}; // a reset of a connection not yet (or never) handed to the HTTP server
  const listener = net.createServer({ pauseOnConnect: true }, (socket) => {
    socket.on("error", ignoreError);
    if (closing) socket.destroy();
    else if (open.size < max) admit(socket);
    else if (waiting.length >= max) refuse(socket, `the server has ${open.size} open connections (api.max-open-connections) and as many waiting; try again`);
    else wait(socket);
  });

  function admit(socket: net.Socket): void {
    open.set(socket, { socket, since: Date.now(), inFlight: new Set(), served: false });
    socket.once("close", () => {
      open.delete(socket);
      admitWaiting();
    });
    server.emit("connection", socket);
    socket.off("error", ignoreError);
    socket.resume();
  }

  function wait(socket: net.Socket): void {
    const waiter: Waiter = {
      socket,
      gaveUp: () => {
        remove(waiter);
        clearTimeout(waiter.timer);
      },
    };
    if (limit.maxWaitMs !== undefined) {
      waiter.timer = setTimeout(() => {
        remove(waiter);
        socket.off("close", waiter.gaveUp);
        refuse(socket, `no connection closed within ${limit.maxWaitMs! / 1000} s (api.max-open-connections is ${max}); try again`);
      }, limit.maxWaitMs);
    }
    socket.once("close", waiter.gaveUp);
    waiting.push(waiter);
    makeRoom();
    sweep ??= setInterval(makeRoom, SWEEP_MS);
  }

  function remove(waiter: Waiter): void {
    const i = waiting.indexOf(waiter);
    if (i >= 0) waiting.splice(i, 1);
    if (waiting.length === 0) stopSweep();
  }

  function stopSweep(): void {
    clearInterval(sweep);
    sweep = undefined;
  }

  function admitWaiting(): void {
    while (open.size < max && waiting.length > 0) {
      const next = waiting.shift()!;
      clearTimeout(next.timer);
      next.socket.off("close", next.gaveUp);
      if (!next.socket.destroyed) admit(next.socket);
    }
    if (waiting.length === 0) stopSweep();
  }

  /** Frees places for the waiting connections: idle and silent ones close now, answered ones after their answer. */
  function makeRoom(): void {
    const now = Date.now();
    let needed = closing ? Infinity : waiting.length - (max - open.size);
    const idle = [...open.values()].filter((p) => p.inFlight.size === 0 && (closing || p.served || now - p.since >= SILENT_GRACE_MS));
    for (const place of idle.sort((a, b) => a.since - b.since)) {
      if (needed-- <= 0) break;
      place.socket.destroy();
    }
    for (const place of open.values()) for (const response of place.inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
  }

  // Before the app's handler: an answer given while others wait ends its connection.
  server.prependListener("request", (request: http.IncomingMessage, response: http.ServerResponse) => {
    const place = open.get(request.socket);
    if (!place) return;
    place.inFlight.add(response);
    if (closing || waiting.length > 0) response.shouldKeepAlive = false;
    response.once("close", () => {
      place.inFlight.delete(response);
      place.served = true;
    });
  });

  return {
    listener,
    counts: () => ({ open: open.size, waiting: waiting.length }),
    shutDown() {
      closing = true;
      for (const waiter of waiting.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.socket.off("close", waiter.gaveUp);
        refuse(waiter.socket, "the server is shutting down");
      }
      stopSweep();
      makeRoom();
    },
  };
}

/**
 * Answers 503 on a connection the HTTP server never saw, then closes it. What
 * the client sent is read and dropped, so that closing does not reset the
 * connection before the client has read the answer.
 */
function busy(socket: net.Socket, message: string): void {
  const body = JSON.stringify({ code: GrpcCode.Unavailable, message, details: [] });
  socket.setTimeout(1000, () => socket.destroy());
  socket.resume();
  socket.end(
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
