import http from "node:http";
import type Koa from "koa";
import type { ApiConfig } from "../config/appConfig.js";
import { parseListenAddress } from "../config/tomlConfig.js";
import { answerClientErrors, refuseBadHeads, refuseConnect } from "../http/clientErrors.js";
import { connectionGate, type ConnectionLimits } from "../http/connectionLimit.js";
import { connectionBudget, openFileLimit } from "../http/openFileLimit.js";
import { rateLimit } from "../http/rateLimit.js";
import type { RequestWeight } from "../http/routeWeights.js";
import type { RunningServer } from "../util/runningServer.js";
import { processLogger } from "../telemetry/processLogger.js";
import type { WireAnswers } from "../http/wireAnswers.js";
import type { DirectAnswers } from "../http/directAnswers.js";

/** How often Node looks for requests past their read timeout: often enough to cut them within a quarter second of it. */
const TIMEOUT_CHECK_MS = 250;
/**
 * Connections the kernel completes before the server accepts them (Linux caps
 * it at net.core.somaxconn, 4096 by default). Node's 511 overflowed when
 * thousands of connections were reopened at once: a handshake that finds the
 * queue full is dropped, and its client retries one, three, seven seconds later.
 */
const LISTEN_BACKLOG = 65_535;
/** Accept errors (no file descriptor left: EMFILE) are logged at most this often. */
const ACCEPT_ERROR_LOG_MS = 10_000;

/** A started server, with what the metrics read of it. */
export interface ListeningServer extends RunningServer {
  /** Emits REFUSAL_EVENT (refusals.ts) for what it refuses before the app sees it. */
  server: http.Server;
  connections(): { open: number; waiting: number };
}

/** Serves a Koa app on api.address with the [api] limits; `wire` writes the kept answers it can without Koa. */
/** Answers written without Koa: kept ones (wireAnswers.ts) and first asks (directAnswers.ts). */
export interface KoalessAnswers {
  wire?: WireAnswers;
  direct?: DirectAnswers;
}

export async function listen(app: Koa, api: ApiConfig, weightOf?: RequestWeight, koaless: KoalessAnswers = {}): Promise<ListeningServer> {
  const { host, port } = parseListenAddress(api.address);
  const readTimeoutMs = api["rpc-read-timeout"] * 1000;
  // Node checks the header and request timeouts only every connectionsCheckingInterval (30 s by
  // default), so a client sending its head one byte a second would be cut long after the timeout.
  // The Host header is checked by refuseBadHeads, which answers with the gateway's error body.
  const server = http.createServer({
    requireHostHeader: false,
    ...(readTimeoutMs > 0
      ? { requestTimeout: readTimeoutMs, headersTimeout: readTimeoutMs, connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, readTimeoutMs / 4) }
      : {}),
  });
  if (api["rpc-write-timeout"] > 0) server.setTimeout(api["rpc-write-timeout"] * 1000);
  const gate = connectionGate(server, connectionLimits(api, readTimeoutMs, weightOf));
  server.on("request", gate.requests(refuseBadHeads(koaListener(app, koaless))));
  answerClientErrors(server, gate.responsesOf);
  refuseConnect(server, gate.responsesOf);
  await new Promise<void>((resolve, reject) => {
    gate.listener.once("error", reject);
    gate.listener.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      gate.listener.off("error", reject);
      resolve();
    });
  });
  logAcceptErrors(gate.listener);
  // The HTTP server starts tracking its connections' timeouts on "listening"; the gate listens for it.
  server.emit("listening");
  const address = gate.listener.address() as { port: number };
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return {
    server,
    connections: () => gate.counts(),
    url: `http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        gate.listener.close(() => resolve());
        gate.shutDown();
        server.close(() => {}); // stops the timeout checks; the server never listened itself, so its callback only reports that
      }),
  };
}

/**
 * The gate's bounds from [api]; api.max-idle-connections is lowered to what the
 * process's open-file limit leaves (an accept that finds no descriptor fails).
 */
function connectionLimits(api: ApiConfig, readTimeoutMs: number, weightOf?: RequestWeight): ConnectionLimits {
  const maxInFlight = api["max-open-connections"];
  const budget = connectionBudget(openFileLimit());
  // answered and waiting requests may each hold a connection of their own
  const idleBudget = Math.max(16, budget - (maxInFlight > 0 ? 2 * maxInFlight : 0));
  let maxIdle = api["max-idle-connections"];
  if (maxIdle > idleBudget) {
    processLogger().warn(`[rest] api.max-idle-connections ${maxIdle} lowered to ${idleBudget}: the process may open ${openFileLimit()} files (ulimit -n)`);
    maxIdle = idleBudget;
  }
  const readTimeout = readTimeoutMs > 0 ? readTimeoutMs : undefined;
  const refuse = rateLimit({ perSecond: api["rate-limit"], burst: api["rate-limit-burst"], trustedProxies: api["trusted-proxies"] }, Date.now, weightOf);
  return { maxInFlight, maxIdle, maxWaitMs: readTimeout, silentMs: readTimeout, refuse };
}

/** An accept error after listening (EMFILE when descriptors run out) is not fatal: Node goes on accepting. */
function logAcceptErrors(listener: import("node:net").Server): void {
  let lastLogged = 0;
  listener.on("error", (err: NodeJS.ErrnoException) => {
    if (Date.now() - lastLogged < ACCEPT_ERROR_LOG_MS) return;
    lastLogged = Date.now();
    processLogger().warn(`[rest] cannot accept a connection: ${err.code ?? err.message}`);
  });
}

/**
 * Koa's request handler as node:http wants it: a listener that returns nothing (Koa answers its own
 * errors), behind the answers written without Koa, which learn from what Koa wrote.
 */
function koaListener(app: Koa, { wire, direct }: KoalessAnswers): http.RequestListener {
  const handle = app.callback();
  if (!wire && !direct) return (req, res) => void handle(req, res);
  const byKoa = (req: http.IncomingMessage, res: http.ServerResponse) =>
    void handle(req, res).then(() => {
      wire?.learn(req, res);
      direct?.learn(req, res);
    });
  return (req, res) => {
    if (wire?.serve(req, res) || direct?.serve(req, res, byKoa)) return;
    byKoa(req, res);
  };
}
