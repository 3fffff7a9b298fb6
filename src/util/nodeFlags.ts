import { spawn } from "node:child_process";

/**
 * Node/V8 flags that only count on the process's own command line. V8 sizes its heap when the
 * isolate is made: `v8.setFlagsFromString("--min-semi-space-size=…")` later changes nothing
 * (measured on Node 20), and Node refuses `--min-semi-space-size` in NODE_OPTIONS. So a process
 * started without them runs itself again with them (`relaunchWithNodeFlags`).
 */

/**
 * The servers' (`start`, `gateway`) young generation, fixed: semi-spaces of 8 MiB from the start,
 * instead of V8's 1 MiB growing to 16 MiB as the request rate rises, so memory reaches this bound
 * in the first seconds and stays there. 4, 8 and 16 MiB cost the same CPU per request on the
 * balance rows (bench/youngGenerationCost.ts; README "Memory"); 8 halves V8's loaded maximum.
 * Also in bin/chain-rest.js's shebang and the `start` script of package.json (no relaunch there).
 */
export const SERVER_NODE_FLAGS = ["--min-semi-space-size=8", "--max-semi-space-size=8"];

const RELAUNCHED_VARIABLE = "CHAIN_REST_RELAUNCHED";
const FORWARDED_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP", "SIGUSR2"];

const flagName = (flag: string) => flag.split("=")[0]!.replace(/_/g, "-");

/**
 * `wanted` when none of them is on this process's command line, in NODE_OPTIONS or in `alsoGiven`
 * (flags about to be passed to a child), else none: the flags are one choice, and a user who set
 * any of them chose the whole.
 */
export function missingNodeFlags(wanted: readonly string[], alsoGiven: readonly string[] = []): string[] {
  const names = new Set([...givenNodeFlags(), ...alsoGiven].map(flagName));
  return wanted.some((flag) => names.has(flagName(flag))) ? [] : [...wanted];
}

function givenNodeFlags(): string[] {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean)];
}

/**
 * Runs this script again in a child process with `flags` added when they are missing, and
 * resolves with the code to exit with once the child has ended; resolves undefined when nothing is
 * missing (or this is already the relaunched process): then the caller goes on in this process.
 * The launcher stays, waiting: it forwards signals, and its end (even by SIGKILL) ends the child.
 */
export function relaunchWithNodeFlags(flags: readonly string[]): Promise<number> | undefined {
  if (process.env[RELAUNCHED_VARIABLE]) {
    delete process.env[RELAUNCHED_VARIABLE]; // not inherited by this process's own children (REST workers)
    endWithLauncher();
    return undefined;
  }
  const missing = missingNodeFlags(flags);
  if (missing.length === 0) return undefined;
  const child = spawn(process.execPath, [...missing, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...process.env, [RELAUNCHED_VARIABLE]: "1" },
    // its own process group, so a terminal's Ctrl-C reaches it once (forwarded), not twice
    detached: process.platform !== "win32",
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      for (const each of FORWARDED_SIGNALS) process.off(each, forward);
      resolve(code ?? 128 + signalNumber(signal));
    });
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGUSR2: 12, SIGTERM: 15 };
  return (signal && numbers[signal]) ?? 1;
}

/** In the relaunched process: when the launcher's channel closes (it ended, SIGKILL included), end at once as it did. */
function endWithLauncher(): void {
  if (!process.channel) return;
  process.channel.unref(); // the channel alone does not keep this process alive
  process.once("disconnect", () => process.kill(process.pid, "SIGKILL"));
}
