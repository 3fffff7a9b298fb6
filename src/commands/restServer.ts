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
import { WireAnswers } from "../http/wireAnswers.js";
import { DirectAnswers } from "../http/directAnswers.js";
import { TurnBatch } from "../http/turnBatching.js";
import { names } from "../names/activeNames.js";
import { createRestApp } from "../server/restApp.js";
import { routeLabels } from "../server/routeLabels.js";
import { meterAnswerCache, meterBoundedQueries, meterDirectAnswers, meterCompressions, meterConnections, requestFamilies } from "../server/restTelemetry.js";
import { PageCaps } from "../http/pageCaps.js";
import { SharedExecutions } from "../http/sharedExecutions.js";
import { tableRoutes } from "../http/tableRoutes.js";
import { disabledRoutes, parseDisabledRoutes } from "../http/disabledRoutes.js";
import { routeWeights } from "../http/routeWeights.js";
import { nodePageCaps, setNodePageCaps } from "../node/abci/nodePageCaps.js";
import { listen, type ListeningServer } from "../server/httpServer.js";
import type { Registry } from "prom-client";
import type { Logger } from "../telemetry/logger.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import type { RunningServer } from "../util/runningServer.js";
import { SERVICE_METHODS } from "../methods/index.js";
import { compileTables, type CompiledTables } from "../tables/compileTables.js";

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
  /** A gateway in front of several nodes: each request's scope (upstreamScope.ts). */
  requestScope?: import("koa").Middleware;
  /** What GET /metrics serves (REST workers: every process's metrics summed; default: the telemetry's own). */
  metricsOf?: () => Promise<Registry>;
  /** The route tables, when compiled before (start checks them before the node opens); default: compiled here. */
  tables?: CompiledTables;
}

/** Starts the REST server on api.address in front of `client`. */
export async function startRestServer(
  api: ApiConfig,
  bech32Prefix: string,
  client: ChainClient,
  codec: Codec,
  nodeNames?: string,
  operations: RestOperations = {},
): Promise<RunningServer & { listening: ListeningServer }> {
  const tables = operations.tables ?? compileTables(codec, { newerRoutes: api["newer-routes"] });
  const routes = tableRoutes(tables.gateway, tables.legacy.routes);
  const disabled = parseDisabledRoutes(api["disabled-routes"], routes);
  const weightOf = routeWeights(api["route-weights"], routes);
  const cacheBytes = api["answer-cache-mb"] * 1024 * 1024;
  const answerCache = cacheBytes > 0 && client.watchHeights ? new AnswerCache(client, cacheBytes, operations.sharedHeight) : undefined;
  const { telemetry, requestLog } = operations;
  const families = telemetry ? requestFamilies(telemetry) : undefined;
  const meter = families || requestLog ? new RequestMeter(routeLabels(tables.gateway, tables.legacy.routes), families, requestLog) : undefined;
  const encodedBodies = new EncodedBodies();
  const pageCaps = new PageCaps(api["max-page-limit"], api["max-page-offset"]);
  setNodePageCaps(api["max-count-total"], api["max-page-limit"]); // the node's scans in this process (start, and its REST workers' replica reads)
  const executions = { count: 0 };
  const sharedExecutions = new SharedExecutions(client);
  const events = new EventStreams(client, { ...DEFAULT_EVENT_STREAM_LIMITS, ...operations.eventLimits });
  const turns = new TurnBatch();
  const deps = { client, codec, services: SERVICE_METHODS, maxBodyBytes: api["rpc-max-body-bytes"], bech32Prefix, pageCaps, executions };
  const app = createRestApp({
    turns,
    gatewayRoutes: tables.gateway,
    legacy: tables.legacy,
    deps,
    cors: api["enabled-unsafe-cors"],
    swagger: api.swagger,
    answerCache,
    sharedExecutions,
    encodedBodies,
    nodeNames,
    meter: meter?.middleware,
    health: healthRoutes(operations.readiness ?? nodeReadiness(client)),
    events: events.middleware,
    metrics: telemetry ? metricsRoute(telemetry, operations.metricsOf) : undefined,
    workerId: operations.workerId,
    requestScope: operations.requestScope,
    cacheMaxAge: api["cache-max-age"],
    disabledRoutes: disabled.length > 0 ? disabledRoutes(disabled) : undefined,
  });
  // a gateway in front of several nodes scopes each request to its connection's height: every answer through Koa
  const wire = answerCache && !operations.requestScope ? new WireAnswers(answerCache, meter) : undefined;
  // not when the node speaks other names (every answer a 502); disabled routes' paths are left to their layer
  const direct =
    nodeNames !== undefined && nodeNames !== names().profile
      ? undefined
      : new DirectAnswers({
          gatewayRoutes: tables.gateway,
          leftToKoa: [...tables.legacy.routes, ...disabled.map((d) => d.route)],
          deps,
          bodies: encodedBodies,
          turns,
          answerCache,
          sharedExecutions,
          meter,
          scoped: operations.requestScope !== undefined,
        });
  const server = await listen(app, api, weightOf, { wire, direct });
  if (telemetry && families) {
    meterConnections(telemetry, families, server);
    if (answerCache) meterAnswerCache(telemetry, answerCache);
    if (direct) meterDirectAnswers(telemetry, direct);
    meterCompressions(telemetry, encodedBodies);
    meterBoundedQueries(telemetry, pageCaps, () => nodePageCaps.refused + nodePageCaps.leftOut, executions, sharedExecutions);
  }
  return {
    url: server.url,
    listening: server,
    close: async () => {
      answerCache?.stop();
      sharedExecutions.stop();
      events.close();
      await server.close();
    },
  };
}
