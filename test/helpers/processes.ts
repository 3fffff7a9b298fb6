import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../../src/util/nodeFlags.js";
import { PACKAGE_ROOT } from "../../src/util/paths.js";

const CLI = path.join(PACKAGE_ROOT, "bin", "chain-rest.js");

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first match of `pattern` in the output so far or to come. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `chain-rest <args>` as a real process; `start` and `gateway` with the servers' node flags,
 * as `npm start` and the shebang pass them, so the child is the server itself (not a launcher).
 */
export function runCli(args: string[]): RunningProcess {
  const flags = args[0] === "start" || args[0] === "gateway" ? SERVER_NODE_FLAGS : [];
  return runNode([...flags, CLI, ...args]);
}

/** Runs `node <args>`, its output collected. */
export function runNode(args: string[]): RunningProcess {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let text = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    for (const l of listeners) l();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = text.match(pattern);
          if (match) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${pattern} in output:\n${text}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() =>
          setTimeout(() => {
            if (listeners.has(check)) {
              listeners.delete(check);
              clearTimeout(timer);
              reject(new Error(`process exited before ${pattern}; output:\n${text}`));
            }
          }, 50),
        );
        check();
      });
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs a short command to completion. */
export async function runCliToEnd(args: string[]): Promise<{ code: number | null; output: string }> {
  const proc = runCli(args);
  const code = await proc.exited;
  return { code, output: proc.output() };
}

/** The line that says a server started; a process that never prints it is killed (a leftover child would keep mocha from exiting). */
async function waitOrStop(proc: RunningProcess, pattern: RegExp, waitMs?: number): Promise<RegExpMatchArray> {
  try {
    return await proc.waitFor(pattern, waitMs);
  } catch (err) {
    await proc.stop("SIGKILL");
    throw err;
  }
}

export interface StartedNode {
  proc: RunningProcess;
  restUrl: string;
  rpcUrl: string;
}

/**
 * `chain-rest start` on free loopback ports; resolves once both servers listen (within `waitMs`:
 * a large genesis takes longer).
 */
export async function startNode(home: string, extraArgs: string[] = [], waitMs = 30_000): Promise<StartedNode> {
  const rpc = extraArgs.includes("--rpc.laddr") ? [] : ["--rpc.laddr", "tcp://127.0.0.1:0"];
  const proc = runCli(["start", "--home", home, "--api.address", "tcp://127.0.0.1:0", ...rpc, ...extraArgs]);
  const rpcLine = await waitOrStop(proc, /node RPC:\s+(http:\/\/[^\s"]+)/, waitMs);
  const rest = proc.output().match(/REST server: (http:\/\/[^\s"]+)/);
  return { proc, restUrl: rest?.[1] ?? "", rpcUrl: rpcLine[1]! };
}

/** `chain-rest gateway --node <rpcUrl>` on a free loopback port. */
export async function startGateway(home: string, rpcUrl: string, extraArgs: string[] = []): Promise<{ proc: RunningProcess; restUrl: string }> {
  const proc = runCli(["gateway", "--home", home, "--node", rpcUrl, "--api.address", "tcp://127.0.0.1:0", ...extraArgs]);
  const rest = await waitOrStop(proc, /REST server: (http:\/\/[^\s"]+)/);
  return { proc, restUrl: rest[1]! };
}
