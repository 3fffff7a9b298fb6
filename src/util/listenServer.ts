import type http from "node:http";
import { parseListenAddress } from "../config/tomlConfig.js";
import type { RunningServer } from "./runningServer.js";

/** Starts `server` on a listen address like "tcp://127.0.0.1:0"; its close runs `beforeClose`, then stops accepting and lets requests in flight finish. */
export async function listenServer(server: http.Server, laddr: string, beforeClose: () => void = () => undefined): Promise<RunningServer> {
  const { host, port } = parseListenAddress(laddr);
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
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
