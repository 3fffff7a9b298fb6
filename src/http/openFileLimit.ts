import fs from "node:fs";

/** Files the process keeps for itself beside client connections (LevelDB's tables, logs, the node's RPC clients). */
const RESERVED_FILES = 2048;

/**
 * The process's limit on open files (`ulimit -n`, which Node raises to the hard
 * limit at start), from /proc/self/limits; undefined where that cannot be read.
 */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync("/proc/self/limits", "utf8"));
    if (!line) return undefined;
    return line[1] === "unlimited" ? undefined : Number(line[1]);
  } catch {
    return undefined;
  }
}

/** How many client connections fit in `fileLimit` open files, leaving the process its own. */
export function connectionBudget(fileLimit: number | undefined): number {
  if (fileLimit === undefined) return Infinity;
  return fileLimit > 2 * RESERVED_FILES ? fileLimit - RESERVED_FILES : Math.floor(fileLimit / 2);
}
