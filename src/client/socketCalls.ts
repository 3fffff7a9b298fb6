import type { Duplex } from "node:stream";
import WebSocket from "ws";

/** A JSON-RPC answer as the node sends it: a result or an error object, under the call's id. */
export interface RpcReply {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: string };
}

/** No answer came within the call's time limit (the same text as an HTTP call's). */
class SocketCallTimedOut extends Error {}

interface Pending {
  resolve: (reply: RpcReply | undefined) => void;
  timer: NodeJS.Timeout;
}

/**
 * JSON-RPC calls sent over an open websocket to the node (the consensus
 * engine answers any method there, as over HTTP), matched to their answers by
 * numeric id. A call answers undefined when the socket is not open or closes
 * before its answer: the caller sends it over HTTP instead, so a node that
 * went away fails as it did without the socket.
 */
export class SocketCalls {
  private readonly pending = new Map<number, Pending>();
  /** The websocket's TCP socket, once its upgrade answered (corked while calls of one tick are sent). */
  private raw: Duplex | undefined;
  private corked = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly timeoutMs: number,
  ) {}

  /** The connection under the websocket (its upgrade's socket): the calls of one tick then leave in one write. */
  useConnection(raw: Duplex): void {
    this.raw = raw;
  }

  call(id: number, body: string): Promise<RpcReply | undefined> {
    if (this.socket.readyState !== WebSocket.OPEN) return Promise.resolve(undefined);
    this.corkUntilNextTick();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new SocketCallTimedOut(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, timer });
      this.socket.send(body);
    });
  }

  /**
   * The calls sent in the rest of this tick (a turn's batch of requests: turnBatching.ts) go out in
   * one write: the node is woken once for them, not once per call, and the gateway makes one system call.
   */
  private corkUntilNextTick(): void {
    const raw = this.raw;
    if (!raw || this.corked) return;
    this.corked = true;
    raw.cork();
    process.nextTick(() => {
      this.corked = false;
      raw.uncork();
    });
  }

  /** Hands an answer to its call; false when the message answers none of them. */
  settle(message: RpcReply): boolean {
    if (typeof message.id !== "number") return false;
    const pending = this.pending.get(message.id);
    if (!pending) return false;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    pending.resolve(message);
    return true;
  }

  /** The socket closed: the calls still waiting go over HTTP. */
  closed(): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.resolve(undefined);
    }
    this.pending.clear();
  }
}
