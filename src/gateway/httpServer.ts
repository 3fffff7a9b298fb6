import http from "node:http";
import type Koa from "koa";
import type { ApiConfig } from "../config/appConfig.js";
import { parseListenAddress } from "../config/tomlConfig.js";

export interface RunningServer {
  /** "http://127.0.0.1:1317" */
  url: string;
  /** Stops accepting, lets in-flight requests finish, then resolves. */
  close(): Promise<void>;
}

/** Serves a Koa app on api.address with the [api] limits. */
export async function listen(app: Koa, api: ApiConfig): Promise<RunningServer> {
  const { host, port } = parseListenAddress(api.address);
  const server = http.createServer(app.callback());
  if (api["max-open-connections"] > 0) server.maxConnections = api["max-open-connections"];
  if (api["rpc-read-timeout"] > 0) {
    server.requestTimeout = api["rpc-read-timeout"] * 1000;
    server.headersTimeout = Math.min(server.headersTimeout, server.requestTimeout);
  }
  if (api["rpc-write-timeout"] > 0) server.setTimeout(api["rpc-write-timeout"] * 1000);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as { port: number };
  const shownHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return {
    url: `http://${shownHost.includes(":") ? `[${shownHost}]` : shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
