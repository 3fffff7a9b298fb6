import os from "node:os";

/** api.workers as a number: "auto" is one per core the process may use. */
export function workerCount(setting: number | string): number {
  return setting === "auto" ? os.availableParallelism() : Number(setting);
}
