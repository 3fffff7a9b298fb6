/** Runs `stop` once on SIGINT or SIGTERM, then exits; a second signal exits at once. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    console.log(`${signal} received: finishing in-flight requests and closing the store...`);
    stop()
      .then(() => {
        console.log("stopped");
        process.exit(0);
      })
      .catch((err: unknown) => {
        console.error("error while stopping:", err);
        process.exit(1);
      });
  };
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
}
