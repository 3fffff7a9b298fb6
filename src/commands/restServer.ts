import type { ChainClient } from "../client/chainClient.js";
import { Codec } from "../codec/codec.js";
import type { ApiConfig } from "../config/appConfig.js";
import { AnswerCache } from "../http/answerCache.js";
import { createRestApp } from "../server/restApp.js";
import { listen } from "../http/httpServer.js";
import type { RunningServer } from "../util/runningServer.js";
import { SERVICE_METHODS } from "../services/index.js";
import { compileTables } from "../tables/compileTables.js";

export { compileTables, ROUTES_FILE, LEGACY_ROUTES_FILE, type CompiledTables } from "../tables/compileTables.js";

/** Starts the REST server on api.address in front of `client`. */
export async function startRestServer(api: ApiConfig, bech32Prefix: string, client: ChainClient, codec: Codec, nodeNames?: string): Promise<RunningServer> {
  const tables = compileTables(codec);
  const cacheBytes = api["answer-cache-mb"] * 1024 * 1024;
  const answerCache = cacheBytes > 0 && client.watchHeights ? new AnswerCache(client, cacheBytes) : undefined;
  const app = createRestApp({
    gatewayRoutes: tables.gateway,
    legacy: tables.legacy,
    deps: { client, codec, services: SERVICE_METHODS, maxBodyBytes: api["rpc-max-body-bytes"], bech32Prefix },
    cors: api["enabled-unsafe-cors"],
    swagger: api.swagger,
    answerCache,
    nodeNames,
    cacheMaxAge: api["cache-max-age"],
  });
  const server = await listen(app, api);
  return {
    url: server.url,
    close: async () => {
      answerCache?.stop();
      await server.close();
    },
  };
}
