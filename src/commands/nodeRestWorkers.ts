import type { ChainClient } from "../client/chainClient.js";
import { SharedHeight } from "../client/sharedHeight.js";
import type { EmbeddedNode } from "../node/embeddedNode.js";
import type { Registry } from "prom-client";
import type { RunningServer } from "../util/runningServer.js";
import type { WorkerJob } from "../workers/messages.js";
import { serveNodeCalls } from "../workers/nodeCalls.js";
import { startRestWorkers } from "../workers/restWorkers.js";

/** The main process's slot of the shared height file. */
const MAIN_SLOT = 0;

/**
 * `start` with api.workers > 1: the REST server in `count` workers that read
 * the node through this process (each call a message; answers they may reuse
 * stay in their own answer cache). At every commit the height is written to
 * the shared height file first — before any other listener of the node, so
 * before anyone can learn of the commit — then sent to every worker.
 */
export async function startNodeRestWorkers(
  node: EmbeddedNode,
  client: ChainClient,
  count: number,
  job: Omit<WorkerJob, "command" | "heightFile" | "heightSlots">,
  registry: Registry | undefined,
): Promise<RunningServer> {
  const height = SharedHeight.create(count + 1);
  height.write(MAIN_SLOT, node.height);
  let tell: (latest: number) => void = () => undefined;
  const onHeight = (latest: number) => {
    height.write(MAIN_SLOT, latest);
    tell(latest);
  };
  node.prependListener("commit", onHeight);
  node.prependListener("pruned", onHeight);
  const stopWatching = () => {
    node.off("commit", onHeight);
    node.off("pruned", onHeight);
  };
  try {
    const workers = await startRestWorkers(count, {
      job: { ...job, command: "start" },
      height,
      onFork: (worker) => serveNodeCalls(worker, client),
      registry,
    });
    tell = (latest) => workers.broadcast({ kind: "height", latest });
    return {
      url: workers.url,
      close: async () => {
        await workers.close();
        stopWatching();
      },
    };
  } catch (err) {
    stopWatching(); // the workers removed the height file
    throw err;
  }
}
