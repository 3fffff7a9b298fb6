import type { ChainClient } from "../client/chainClient.js";
import { Codec } from "../codec/codec.js";
import type { ApiConfig } from "../config/appConfig.js";
import { AnswerCache, type HeightExchange } from "../http/answerCache.js";
import { EncodedBodies } from "../http/encodedBodies.js";
import { DEFAULT_EVENT_STREAM_LIMITS, EventStreams, type EventStreamLimits } from "../http/eventStream.js";
import { healthRoutes, type ReadinessCheck } from "../http/health.js";
import { metricsRoute } from "../http/metricsRoute.js";
import { nodeReadiness } from "../http/readiness.js";
import { RequestMeter } from "../http/requestMeter.js";
import { createRestApp } from "../server/restApp.js";
import { routeLabels } from "../server/routeLabels.js";
import { meterAnswerCache, meterCompressions, meterConnections, requestFamilies } from "../server/restTelemetry.js";
import { listen } from "../http/httpServer.js";
import type { Registry } from "prom-client";
import type { Logger } from "../telemetry/logger.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import type { RunningServer } from "../util/runningServer.js";
import { SERVICE_METHODS } from "../services/index.js";
import { compileTables } from "../tables/compileTables.js";

export { compileTables, ROUTES_FILE, LEGACY_ROUTES_FILE } from "../tables/compileTables.js";

/** How the REST server is run for others: metrics, request logs, readiness. */
export interface RestOperations {
  /** [telemetry] enabled: the metrics and GET /metrics. */
  telemetry?: Telemetry;
  /** api.log-requests: one line per request. */
  requestLog?: Logger;
  /** What GET /readyz asks (default: the node's status). */
  readiness?: ReadinessCheck;
  /** The bounds of GET /events (default: config.toml's defaults). */
  eventLimits?: Partial<EventStreamLimits>;
  /** A REST worker's number (api.workers > 1), named by each answer's X-Chain-Rest-Worker header. */
  workerId?: number;
  /** REST workers: the height all processes know, for the answer cache (answerCache.ts HeightExchange). */
  sharedHeight?: HeightExchange;
  /** What GET /metrics serves (REST workers: every process's metrics summed; default: the telemetry's own). */
  metricsOf?: () => Promise<Registry>;
}

/** Starts the REST server on api.address in front of `client`. */
export async function startRestServer(
  api: ApiConfig,
  bech32Prefix: string,
  client: ChainClient,
  codec: Codec,
  nodeNames?: string,
  operations: RestOperations = {},
): Promise<RunningServer> {
  const tables = compileTables(codec);
  const cacheBytes = api["answer-cache-mb"] * 1024 * 1024;
  const answerCache = cacheBytes > 0 && client.watchHeights ? new AnswerCache(client, cacheBytes, operations.sharedHeight) : undefined;
  const { telemetry, requestLog } = operations;
  const families = telemetry ? requestFamilies(telemetry) : undefined;
  const meter = families || requestLog ? new RequestMeter(routeLabels(tables.gateway, tables.legacy.routes), families, requestLog) : undefined;
  const encodedBodies = new EncodedBodies();
  const events = new EventStreams(client, { ...DEFAULT_EVENT_STREAM_LIMITS, ...operations.eventLimits });
  const app = createRestApp({
    gatewayRoutes: tables.gateway,
    legacy: tables.legacy,
    deps: { client, codec, services: SERVICE_METHODS, maxBodyBytes: api["rpc-max-body-bytes"], bech32Prefix },
    cors: api["enabled-unsafe-cors"],
    swagger: api.swagger,
    answerCache,
    encodedBodies,
    nodeNames,
    meter: meter?.middleware,
    health: healthRoutes(operations.readiness ?? nodeReadiness(client)),
    events: events.middleware,
    metrics: telemetry ? metricsRoute(telemetry, operations.metricsOf) : undefined,
    workerId: operations.workerId,
    cacheMaxAge: api["cache-max-age"],
  });
  const server = await listen(app, api);
  if (telemetry && families) {
    meterConnections(telemetry, families, server);
    if (answerCache) meterAnswerCache(telemetry, answerCache);
    meterCompressions(telemetry, encodedBodies);
  }
  return {
    url: server.url,
    close: async () => {
      answerCache?.stop();
      events.close();
      await server.close();
    },
  };
}
