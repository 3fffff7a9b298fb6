import type http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { GrpcCode } from "./grpcStatus.js";
import { writeAnswer, writeRawAnswerAndClose, writeResponseAndClose, type RawAnswer } from "./rawAnswer.js";
import { reportRefusal } from "./refusals.js";

export interface ConnectionLimits {
  /** api.max-open-connections: requests being answered at once, and heads late past HEAD_DEADLINE_MS (0 = no limit). */
  maxInFlight: number;
  /** Connections not being answered (silent, idle between requests, sending a head) kept open at once (api.max-idle-connections). */
  maxIdle: number;
  /** How long a request over maxInFlight may wait for a place (api.rpc-read-timeout; undefined = no limit). */
  maxWaitMs?: number;
  /** A connection that has sent nothing this long after it connected is closed, unanswered (api.rpc-read-timeout; undefined = never). */
  silentMs?: number;
  /** Refuses a request before it takes or waits for a place (api.rate-limit). */
  refuse?: (request: http.IncomingMessage) => RawAnswer | undefined;
}

/** A connection that has begun a request head and not finished it this long after takes a place of maxInFlight. */
const HEAD_DEADLINE_MS = 1000;
/** How often connections are looked over for late heads and silent connections past their time. */
const SWEEP_MS = 250;
/** Silent connections closed in one go before the event loop turns (to read the other connections) again. */
const CLOSE_SLICE = 256;

interface Connection {
  socket: net.Socket;
  connectedAt: number;
  /** Requests owed an answer on this connection, in request order (pipelined requests are answered in turn). */
  owed: Ticket[];
  /** socket.bytesRead when its last answer ended (or it connected): bytes past it begin a new head. */
  readMark: number;
  /** When the sweep first saw bytes of a head not yet complete. */
  headSince?: number;
}

/** A request from its arrival until its answer ends or its connection closes. */
interface Ticket {
  response: http.ServerResponse;
  connection?: Connection;
  state: "waiting" | "running" | "done";
  run: () => void;
  timer?: NodeJS.Timeout;
}

export interface ConnectionGate {
  /** The listening socket; it hands each connection it keeps to the HTTP server. */
  listener: net.Server;
  /** Wraps the app's request listener: a request runs when a place is free, or waits in line for one. */
  requests: (next: http.RequestListener) => http.RequestListener;
  /** The responses a connection owes, in the order of their requests. */
  responsesOf: (socket: Duplex) => readonly http.ServerResponse[];
  /** Stops accepting: waiting requests are answered 503, idle connections closed, answers in flight end their connection. */
  shutDown(): void;
  /** Connections open and requests waiting for a place, for the metrics. */
  counts(): { open: number; waiting: number };
}

/**
 * Limits what costs, not what is open. A connection costs a few kilobytes while
 * it is silent or idles between keep-alive requests, so up to maxIdle such
 * connections stay open (at the bound a new connection takes the place of the
 * one that has been without a request longest; the sweep closes silent ones
 * at the read timeout, Node's keepAliveTimeout idle ones). What costs is a request being
 * answered, and a request head that is arriving (up to 16 kB buffered by the
 * parser): together they are held to maxInFlight (api.max-open-connections,
 * counted in requests as the real server's LimitListener counted the
 * connections it served). A request over it waits in line, up to maxWaitMs
 * and up to maxInFlight requests long, then is answered 503 with Retry-After;
 * a head that has not arrived HEAD_DEADLINE_MS after its first byte gives up
 * its place when places run out (the oldest first, answered 408).
 */
export function connectionGate(server: http.Server, limits: ConnectionLimits): ConnectionGate {
  const maxInFlight = limits.maxInFlight > 0 ? limits.maxInFlight : Infinity;
  /** In order of the last time each had a request answered (or connected): the idlest first. */
  const connections = new Map<net.Socket, Connection>();
  let busyConnections = 0;
  let inFlight = 0;
  const line: Ticket[] = [];
  let closing = false;

  const refuse = (response: http.ServerResponse, message: string) => {
    reportRefusal(server, 503);
    refuseRequest(response, message);
  };

  const ignoreError = () => {}; // a reset of a connection not yet (or never) handed to the HTTP server
  const listener = net.createServer({ pauseOnConnect: true }, (socket) => {
    socket.on("error", ignoreError);
    if (closing) socket.destroy();
    else {
      // at the bound there is always one to close: the bound counts only connections not being answered
      if (connections.size - busyConnections >= limits.maxIdle) closeIdlest();
      keep(socket);
    }
  });

  function keep(socket: net.Socket): void {
    const connection: Connection = { socket, connectedAt: Date.now(), owed: [], readMark: 0 };
    connections.set(socket, connection);
    socket.once("close", () => {
      // Node emits no "close" for a pipelined response still queued behind another when the socket closes
      for (const ticket of [...connection.owed]) release(ticket);
      connections.delete(socket);
    });
    // Handed to the HTTP server at its first byte: until then it costs no parser, no timeout
    // tracking and no listeners of Node's, and the gate's sweep closes it if it stays silent.
    socket.once("data", (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      server.emit("connection", socket);
      socket.off("error", ignoreError);
      socket.resume();
    });
    socket.resume();
  }

  /** Closes the connection longest without a request (silent, idle or slow): the first of the map not being answered. */
  function closeIdlest(): void {
    for (const connection of connections.values()) {
      if (connection.owed.length > 0) continue;
      connections.delete(connection.socket);
      connection.socket.destroy();
      return;
    }
  }

  function arrive(next: http.RequestListener, request: http.IncomingMessage, response: http.ServerResponse): void {
    const connection = connections.get(request.socket);
    const ticket: Ticket = { response, connection, state: "waiting", run: () => begin(ticket, next, request) };
    if (connection) {
      if (connection.owed.length === 0) busyConnections++;
      connection.owed.push(ticket);
      connection.headSince = undefined;
    }
    response.once("close", () => release(ticket));
    if (closing) response.shouldKeepAlive = false;
    const refusal = limits.refuse?.(request);
    if (refusal) {
      reportRefusal(server, refusal.status);
      request.resume();
      writeAnswer(response, refusal);
    } else if (inFlight < maxInFlight) ticket.run();
    else if (line.length >= maxInFlight) refuse(response, `${inFlight} requests are being answered (api.max-open-connections) and as many wait; try again`);
    else wait(ticket);
  }

  function begin(ticket: Ticket, next: http.RequestListener, request: http.IncomingMessage): void {
    ticket.state = "running";
    inFlight++;
    next(request, ticket.response);
  }

  function release(ticket: Ticket): void {
    const was = ticket.state;
    if (was === "done") return;
    ticket.state = "done";
    clearTimeout(ticket.timer);
    const connection = ticket.connection;
    if (connection) {
      connection.owed.splice(connection.owed.indexOf(ticket), 1);
      if (connection.owed.length === 0) {
        busyConnections--;
        connection.readMark = connection.socket.bytesRead;
        if (connections.delete(connection.socket)) connections.set(connection.socket, connection); // to the end: now the least idle
      }
    }
    if (was === "running") {
      inFlight--;
      runWaiting();
    } else {
      const i = line.indexOf(ticket);
      if (i >= 0) line.splice(i, 1);
    }
  }

  function runWaiting(): void {
    while (inFlight < maxInFlight && line.length > 0) {
      const ticket = line.shift()!;
      clearTimeout(ticket.timer);
      ticket.run();
    }
  }

  function wait(ticket: Ticket): void {
    if (limits.maxWaitMs !== undefined) {
      ticket.timer = setTimeout(() => {
        line.splice(line.indexOf(ticket), 1); // it is in line while its timer runs
        refuse(ticket.response, `no request place freed within ${limits.maxWaitMs! / 1000} s (api.max-open-connections is ${maxInFlight}); try again`);
      }, limits.maxWaitMs);
    }
    line.push(ticket);
  }

  /**
   * Heads begun more than HEAD_DEADLINE_MS ago and not finished take the places
   * requests leave free; the oldest beyond them are cut. Connections silent
   * since they connected are closed a sweep before Node's read timeout would
   * answer them 408 (Go's server closes them unanswered too), a slice at a
   * time: thousands of them time out together when they connected together.
   */
  function sweep(): void {
    if (connections.size === 0) return;
    const now = Date.now();
    const late: Connection[] = [];
    const silent: net.Socket[] = [];
    for (const connection of connections.values()) {
      if (connection.owed.length > 0) continue;
      const read = connection.socket.bytesRead;
      if (read === 0 && limits.silentMs !== undefined && now - connection.connectedAt >= limits.silentMs - SWEEP_MS) silent.push(connection.socket);
      if (read <= connection.readMark) continue;
      connection.headSince ??= now;
      if (now - connection.headSince >= HEAD_DEADLINE_MS) late.push(connection);
    }
    closeInSlices(silent);
    const places = Math.max(0, maxInFlight - inFlight);
    if (late.length <= places) return;
    late.sort((a, b) => a.headSince! - b.headSince!);
    for (const connection of late.slice(0, late.length - places)) {
      connections.delete(connection.socket);
      reportRefusal(server, 408);
      writeRawAnswerAndClose(connection.socket, {
        status: 408,
        code: GrpcCode.DeadlineExceeded,
        message: `the request head was not received within ${HEAD_DEADLINE_MS / 1000} s while the server was busy (api.max-open-connections is ${maxInFlight})`,
      });
    }
  }

  function closeInSlices(sockets: net.Socket[], from = 0): void {
    for (const socket of sockets.slice(from, from + CLOSE_SLICE)) {
      connections.delete(socket);
      socket.destroy();
    }
    if (from + CLOSE_SLICE < sockets.length) setImmediate(() => closeInSlices(sockets, from + CLOSE_SLICE));
  }
  const sweeps = setInterval(sweep, SWEEP_MS);
  sweeps.unref();

  return {
    listener,
    requests: (next) => (request, response) => arrive(next, request, response),
    counts: () => ({ open: connections.size, waiting: line.length }),
    responsesOf: (socket) => connections.get(socket as net.Socket)?.owed.map((ticket) => ticket.response) ?? [],
    shutDown() {
      closing = true;
      clearInterval(sweeps);
      for (const ticket of line.splice(0)) {
        clearTimeout(ticket.timer);
        refuse(ticket.response, "the server is shutting down");
      }
      for (const connection of connections.values()) {
        if (connection.owed.length === 0) connection.socket.destroy();
        for (const { response } of connection.owed) if (!response.headersSent) response.shouldKeepAlive = false;
      }
    },
  };
}

/** A request the gate cannot run: 503 with the error body and Retry-After; its connection closes. */
function refuseRequest(response: http.ServerResponse, message: string): void {
  response.req.resume();
  writeResponseAndClose(response, { status: 503, code: GrpcCode.Unavailable, message, retryAfter: 1 });
}
