import type http from "node:http";
import { parseListenAddress } from "../config/tomlConfig.js";
import type { RunningServer } from "./runningServer.js";

/** How long a close waits for requests in flight before it ends their connections (a broadcast that waits for its block takes a few). */
const CLOSE_GRACE_MS = 10_000;

/**
 * Starts `server` on a listen address like "tcp://127.0.0.1:0". Its close runs
 * `beforeClose`, stops accepting, and lets requests in flight finish (for up to
 * CLOSE_GRACE_MS); every answer from then on closes its connection, so that a
 * keep-alive client that keeps asking (a gateway's probes every few hundred
 * milliseconds) cannot hold the server open.
 */
export async function listenServer(server: http.Server, laddr: string, beforeClose: () => void = () => undefined): Promise<RunningServer> {
  const { host, port } = parseListenAddress(laddr);
  /** Responses not yet finished: the requests being answered, each gone when its response closes. */
  const unfinished = new Set<http.ServerResponse>();
  let closing = false;
  server.prependListener("request", (_request: http.IncomingMessage, response: http.ServerResponse) => {
    if (closing) response.shouldKeepAlive = false;
    unfinished.add(response);
    response.once("close", () => unfinished.delete(response));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        beforeClose();
        closing = true;
        for (const response of unfinished) if (!response.headersSent) response.shouldKeepAlive = false;
        const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        grace.unref();
        server.close(() => {
          clearTimeout(grace);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
