import http from "node:http";
import type Koa from "koa";
import type { ApiConfig } from "../config/appConfig.js";
import { parseListenAddress } from "../config/tomlConfig.js";
import { answerClientErrors } from "./clientErrors.js";
import { gatedListener } from "./connectionLimit.js";
import type { RunningServer } from "../util/runningServer.js";

/** How often Node looks for requests past their read timeout: often enough to cut them within a quarter second of it. */
const TIMEOUT_CHECK_MS = 250;

/** A started server, with what the metrics read of it. */
export interface ListeningServer extends RunningServer {
  /** Emits REFUSAL_EVENT (refusals.ts) for what it refuses before the app sees it. */
  server: http.Server;
  connections(): { open: number; waiting: number };
}

/** Serves a Koa app on api.address with the [api] limits. */
export async function listen(app: Koa, api: ApiConfig): Promise<ListeningServer> {
  const { host, port } = parseListenAddress(api.address);
  const readTimeoutMs = api["rpc-read-timeout"] * 1000;
  // Node checks the header and request timeouts only every connectionsCheckingInterval (30 s by
  // default), so a client sending its head one byte a second was cut 10-40 s after it connected.
  const server = http.createServer(
    readTimeoutMs > 0
      ? { requestTimeout: readTimeoutMs, headersTimeout: readTimeoutMs, connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, readTimeoutMs / 4) }
      : {},
    koaListener(app),
  );
  if (api["rpc-write-timeout"] > 0) server.setTimeout(api["rpc-write-timeout"] * 1000);
  answerClientErrors(server);
  const gate = gatedListener(server, { maxConnections: api["max-open-connections"], maxWaitMs: readTimeoutMs > 0 ? readTimeoutMs : undefined });
  await new Promise<void>((resolve, reject) => {
    gate.listener.once("error", reject);
    gate.listener.listen(port, host, () => resolve());
  });
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

/** Koa's request handler as node:http wants it: a listener that returns nothing (Koa answers its own errors). */
function koaListener(app: Koa): http.RequestListener {
  const handle = app.callback();
  return (req, res) => void handle(req, res);
}
