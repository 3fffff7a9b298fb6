import type { Registry } from "prom-client";
import { Codec } from "../codec/codec.js";
import { startRestServer, type RestOperations } from "../commands/restServer.js";
import { gatewayClient, namesMismatchWarning } from "../commands/gatewayClient.js";
import { operations } from "../commands/operations.js";
import { useNames } from "../names/activeNames.js";
import { flushLogger } from "../telemetry/logger.js";
import { promClient } from "../telemetry/telemetry.js";
import { ChannelClient } from "./channelClient.js";
import { MainLink, processChannel } from "./mainLink.js";
import { WORKER_INDEX_VARIABLE, WORKER_JOB_VARIABLE, type WorkerJob } from "./messages.js";
import { SharedHeight } from "../client/sharedHeight.js";
import { ReplicaQueries } from "./replicaQueries.js";
import { processLogger } from "../telemetry/processLogger.js";

/**
 * A REST worker of `start` or `gateway` (api.workers > 1): the same REST
 * server as a single process, on the listening socket the main process
 * shares. In `start` it reads the node through the main process; in
 * `gateway` it has its own connection to the remote node.
 */
async function runWorker(job: WorkerJob): Promise<void> {
  processLogger(job.logFormat); // before anything logs: the output is one format throughout
  const link = new MainLink(processChannel());
  const { app } = job;
  useNames(job.names ?? app.names); // before the proto tree and the tables load
  const ops = operations(app, job.logFormat, job.command);
  const index = Number(process.env[WORKER_INDEX_VARIABLE]);
  const height = new SharedHeight(job.heightFile, job.heightSlots);
  const restOperations: RestOperations = {
    ...ops,
    eventLimits: job.eventLimits,
    workerId: index + 1,
    metricsOf: () => metricsOfAll(link),
    sharedHeight: { read: () => height.read(), tell: (latest) => height.write(1 + index, latest) },
  };
  let stopClient = () => {};
  let rest;
  if (job.command === "start") {
    const codec = new Codec(); // one for the REST side and the node's handlers, as in one process
    const local = job.replica && ReplicaQueries.open(job.replica, app["bech32-prefix"], codec);
    rest = await startRestServer(app.api, app["bech32-prefix"], new ChannelClient(link, height, local), codec, undefined, restOperations);
  } else {
    const upstream = await gatewayClient(app, job.upstreams ?? { nodes: [job.node!] }, ops.telemetry);
    stopClient = () => upstream.stop();
    const warning = index === 0 ? namesMismatchWarning(upstream.nodeNames) : undefined; // once, not once per worker
    if (warning) processLogger().warn(warning);
    rest = await startRestServer(app.api, app["bech32-prefix"], upstream.client, new Codec(), upstream.nodeNames, {
      ...restOperations,
      readiness: upstream.readiness,
      requestScope: upstream.requestScope,
    });
  }
  const server = rest;
  link.on((message) => {
    if (message.kind === "collectMetrics")
      void (ops.telemetry?.registry.getMetricsAsJSON() ?? Promise.resolve([])).then((metrics) => link.send({ kind: "metricsJson", id: message.id, metrics }));
    else if (message.kind === "close")
      void server
        .close()
        .then(() => stopClient())
        .then(() => flushLogger(ops.logger))
        .finally(() => process.exit(0));
  });
  link.send({ kind: "listening", url: server.url });
}

/**
 * Every process's metrics summed (counters, histograms and gauges alike), for GET /metrics. prom-client
 * is loaded here, as telemetry loads it: not at each worker's start, and one copy in the bundle's workers.
 */
async function metricsOfAll(link: MainLink): Promise<Registry> {
  const all = (await link.request({ kind: "metrics", id: link.id() })) as object[][];
  return promClient().AggregatorRegistry.aggregate(all);
}

// The main process stops the workers (a close message): a terminal's Ctrl-C reaches the whole process group.
process.on("SIGINT", () => undefined);
process.on("SIGTERM", () => undefined);
process.on("disconnect", () => process.exit(1)); // the main process is gone
runWorker(JSON.parse(process.env[WORKER_JOB_VARIABLE]!) as WorkerJob).catch((err: unknown) => {
  processLogger().fatal(`[rest] worker failed to start: ${err instanceof Error ? err.message : String(err)}`);
  processLogger().flush(() => process.exit(1));
});
