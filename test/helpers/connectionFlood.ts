import net from "node:net";
import { freshRequest } from "./rawHttp.js";

export interface ConnectionFlood {
  /** Connections open right now. */
  open(): number;
  /** Connections the server has ended so far (each was reopened). */
  ended(): number;
  /** Closes every connection and opens no more. */
  stop(): Promise<void>;
}

/**
 * `count` connections to `base` that send nothing; each one the server ends
 * (or that fails to connect) is opened again `reopenMs` later, so the flood
 * keeps up for as long as it runs.
 */
export function silentFlood(base: string, count: number, reopenMs = 1000): ConnectionFlood {
  const url = new URL(base);
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let connected = 0;
  let ended = 0;
  const openOne = () => {
    const socket = net.connect(Number(url.port), url.hostname);
    let wasConnected = false;
    sockets.add(socket);
    socket.on("connect", () => {
      wasConnected = true;
      connected++;
    });
    socket.on("data", () => {}); // a 408 or 503 before the server ends it
    socket.on("error", () => {});
    socket.on("close", () => {
      sockets.delete(socket);
      if (wasConnected) {
        connected--;
        ended++;
      }
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopped) openOne();
      }, reopenMs);
      timers.add(timer);
    });
  };
  for (let i = 0; i < count; i++) openOne();
  return {
    open: () => connected,
    ended: () => ended,
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      const closings = [...sockets].map((socket) => new Promise((resolve) => socket.once("close", resolve)));
      for (const socket of sockets) socket.destroy();
      await Promise.all(closings);
    },
  };
}

export interface Ask {
  /** From the first attempt to the 200. */
  ms: number;
  /** Attempts it took (the first answer and the 503s followed by their Retry-After). */
  attempts: number;
  firstStatus: number;
}

/**
 * A client as the issue describes one: asks `path` on a new connection and,
 * answered 503, asks again after the Retry-After the server gave, until a 200
 * (any other answer fails the ask). A reset connection is asked again 100 ms later.
 */
export async function askUntilOk(base: string, path: string): Promise<Ask> {
  const started = Date.now();
  let firstStatus = 0;
  for (let attempts = 1; ; attempts++) {
    const answer: { status: number; text: string; headers: Record<string, string | string[] | undefined> } = await freshRequest(base, path).catch(
      (err: Error) => ({ status: 0, text: err.message, headers: {} }),
    );
    firstStatus ||= answer.status;
    if (answer.status === 200) return { ms: Date.now() - started, attempts, firstStatus };
    if (answer.status !== 503 && answer.status !== 0) throw new Error(`${path} answered ${answer.status}: ${answer.text}`);
    const retryAfterMs = answer.status === 0 ? 100 : Number(answer.headers["retry-after"] ?? 0) * 1000;
    await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
  }
}
