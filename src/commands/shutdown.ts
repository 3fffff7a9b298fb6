import { processLogger } from "../telemetry/processLogger.js";

/** Runs `stop` once on SIGINT or SIGTERM, then exits; a second signal exits at once. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    const log = processLogger();
    log.info(`${signal} received: finishing in-flight requests and closing the store...`);
    stop()
      .then(() => {
        log.info("stopped");
        log.flush(() => process.exit(0));
      })
      .catch((err: unknown) => {
        log.error({ err }, "error while stopping");
        log.flush(() => process.exit(1));
      });
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
}
