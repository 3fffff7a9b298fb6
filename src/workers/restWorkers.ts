import cluster, { type Worker } from "node:cluster";
import type { Registry } from "prom-client";
import { SharedHeight } from "../client/sharedHeight.js";
import type { RunningServer } from "../util/runningServer.js";
import { batchedSender, eachMessage } from "./batching.js";
import { restWorkerEntry } from "./restWorkerEntry.js";
import { WORKER_INDEX_VARIABLE, WORKER_JOB_VARIABLE, type MainToWorker, type WorkerJob, type WorkerToMain } from "./messages.js";
import { processLogger } from "../telemetry/processLogger.js";

/** Old-space heap of a worker beyond its answer cache: the tables, codecs and requests in flight, with room for a burst. */
const WORKER_HEAP_MB = 256;
/** How long close() waits for a worker to finish its requests and exit before it is killed. */
const CLOSE_WAIT_MS = 10_000;
/** A worker that dies is started again after this pause (a worker that cannot start stops the start instead). */
const RESTART_DELAY_MS = 1_000;

export interface RestWorkersOptions {
  /** What each worker runs (the height file is added here). */
  job: Omit<WorkerJob, "heightFile" | "heightSlots">;
  /** The heights the processes share, `count + 1` slots (made here when absent); removed at close. */
  height?: SharedHeight;
  /** Called for each worker as it is forked (start: the node's side of its channel). */
  onFork?(worker: WorkerPort): void;
  /** This process's own metrics, summed with the workers' on GET /metrics. */
  registry?: Registry;
}

export interface RestWorkers extends RunningServer {
  /** Sends a message to every worker (start: the height at each commit). */
  broadcast(message: MainToWorker): void;
}

/** The main process's side of one worker's channel (messages sent in batches, batching.ts). */
export interface WorkerPort {
  send: (message: MainToWorker) => void;
  onMessage: (listener: (message: WorkerToMain) => void) => void;
  onExit: (listener: () => void) => void;
}

function workerPort(worker: Worker): WorkerPort {
  return {
    send: batchedSender((batch) => {
      if (worker.isConnected()) worker.send(batch);
    }),
    onMessage: (listener) => worker.on("message", (received) => eachMessage(received, listener)),
    onExit: (listener) => worker.on("exit", listener),
  };
}

/**
 * Runs the REST server in `count` cluster workers sharing the listening socket
 * (Node's default round-robin: this process accepts and hands connections out
 * in turn). Resolves once every worker listens; rejects if one exits before.
 */
export async function startRestWorkers(count: number, options: RestWorkersOptions): Promise<RestWorkers> {
  cluster.setupPrimary({
    exec: restWorkerEntry(),
    args: [],
    serialization: "advanced", // structured clone: query bytes cross as bytes, not JSON arrays
    execArgv: [...process.execArgv, `--max-old-space-size=${WORKER_HEAP_MB + options.job.app.api["answer-cache-mb"]}`],
  });
  const height = options.height ?? SharedHeight.create(count + 1);
  const job: WorkerJob = { ...options.job, heightFile: height.file, heightSlots: height.slots };
  const workers = new Map<Worker, WorkerPort>();
  const metrics = new MetricsGathering(workers, options.registry);
  let closing = false;
  let url = "";

  const fork = (index: number): Promise<string> => {
    const worker = cluster.fork({ [WORKER_JOB_VARIABLE]: JSON.stringify(job), [WORKER_INDEX_VARIABLE]: String(index) });
    const port = workerPort(worker);
    workers.set(worker, port);
    options.onFork?.(port);
    return new Promise((resolve, reject) => {
      let listening = false;
      port.onMessage((message) => {
        if (message.kind === "listening") {
          listening = true;
          resolve(message.url);
        } else if (message.kind === "metrics") void metrics.reply(port, message.id);
        else if (message.kind === "metricsJson") metrics.collected(message.id, message.metrics);
      });
      worker.on("exit", (code, signal) => {
        workers.delete(worker);
        if (!listening) return reject(new Error(`a REST worker exited before listening (code ${code ?? signal})`));
        if (closing) return;
        processLogger().error(`[rest] worker ${worker.process.pid} exited (${code ?? signal}); starting another`);
        setTimeout(() => {
          if (!closing) fork(index).catch((err: unknown) => processLogger().error({ err }, "[rest] a worker could not start again"));
        }, RESTART_DELAY_MS);
      });
    });
  };

  const close = async () => {
    closing = true;
    await Promise.all([...workers].map(([worker, port]) => stopWorker(worker, port)));
    height.remove();
  };
  try {
    url = (await Promise.all(Array.from({ length: count }, (_, index) => fork(index))))[0]!;
  } catch (err) {
    await close();
    throw err;
  }
  return {
    url,
    close,
    broadcast: (message) => {
      for (const port of workers.values()) port.send(message);
    },
  };
}

/** Asks a worker to finish its requests and exit; kills it after CLOSE_WAIT_MS. */
function stopWorker(worker: Worker, port: WorkerPort): Promise<void> {
  return new Promise((resolve) => {
    if (worker.isDead()) return resolve();
    const timer = setTimeout(() => worker.kill("SIGKILL"), CLOSE_WAIT_MS);
    worker.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    if (worker.isConnected()) port.send({ kind: "close" });
    else worker.kill();
  });
}

/** GET /metrics with workers: every worker's metrics (and this process's) as JSON, for the asking worker to sum. */
class MetricsGathering {
  private nextId = 1;
  private readonly waiting = new Map<number, (metrics: object[]) => void>();

  constructor(
    private readonly workers: Map<Worker, WorkerPort>,
    private readonly registry: Registry | undefined,
  ) {}

  async reply(asker: WorkerPort, id: number): Promise<void> {
    const own = this.registry ? [await this.registry.getMetricsAsJSON()] : [];
    const theirs = await Promise.all([...this.workers].filter(([worker]) => worker.isConnected()).map(([worker, port]) => this.ask(worker, port)));
    asker.send({ kind: "reply", id, result: [...own, ...theirs] });
  }

  collected(id: number, metrics: object[]): void {
    this.waiting.get(id)?.(metrics);
    this.waiting.delete(id);
  }

  /** One worker's metrics; an empty list if it exits first. */
  private ask(worker: Worker, port: WorkerPort): Promise<object[]> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const gone = () => {
        this.waiting.delete(id);
        resolve([]);
      };
      worker.once("exit", gone);
      this.waiting.set(id, (metrics) => {
        worker.off("exit", gone);
        resolve(metrics);
      });
      port.send({ kind: "collectMetrics", id });
    });
  }
}
