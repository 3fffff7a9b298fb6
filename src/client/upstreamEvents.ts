import WebSocket from "ws";
import { NodeRpcError, NodeUnavailableError, type EventListener, type StreamedEvent } from "./chainClient.js";
import { websocketText } from "../util/websocketText.js";

const SUBSCRIBE_ID = "chain-rest-events";

interface Upstream {
  listeners: Set<EventListener>;
  /** Settles once the node confirmed the subscription (or refused it). */
  ready: Promise<void>;
  socket: WebSocket;
}

/**
 * The event subscriptions of a gateway, held on the node's `/websocket`: one
 * upstream subscription per distinct query, shared by every listener asking
 * it, each on its own connection (the node allows a connection only a few
 * subscriptions: max_subscriptions_per_client). The connection closes when
 * its last listener leaves; when the node closes it, its listeners are ended
 * (a client reconnects, and a new subscription is made).
 */
export class UpstreamEvents {
  private readonly upstreams = new Map<string, Upstream>();

  constructor(
    private readonly rpcUrl: string,
    private readonly timeoutMs: number,
  ) {}

  async subscribe(query: string, listener: EventListener): Promise<() => void> {
    let upstream = this.upstreams.get(query);
    if (!upstream) {
      upstream = this.open(query);
      this.upstreams.set(query, upstream);
    }
    upstream.listeners.add(listener);
    const leave = () => {
      upstream.listeners.delete(listener);
      if (upstream.listeners.size > 0) return;
      if (this.upstreams.get(query) === upstream) this.upstreams.delete(query);
      upstream.socket.terminate();
    };
    try {
      await upstream.ready;
    } catch (err) {
      leave();
      throw err;
    }
    return leave;
  }

  /** Distinct queries subscribed upstream (one connection each). */
  get size(): number {
    return this.upstreams.size;
  }

  private open(query: string): Upstream {
    const socket = new WebSocket(new URL("/websocket", this.rpcUrl.replace(/^http/, "ws")));
    const listeners = new Set<EventListener>();
    let confirmed = false;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new NodeUnavailableError(this.rpcUrl, `no subscription within ${this.timeoutMs} ms`));
        socket.terminate();
      }, this.timeoutMs);
      socket.on("open", () => socket.send(JSON.stringify({ jsonrpc: "2.0", id: SUBSCRIBE_ID, method: "subscribe", params: { query } })));
      socket.on("message", (raw) => {
        let message: { id?: unknown; result?: Partial<StreamedEvent>; error?: { code: number; message: string; data?: string } };
        try {
          message = JSON.parse(websocketText(raw)) as typeof message;
        } catch {
          return socket.terminate();
        }
        if (message.id !== SUBSCRIBE_ID) return;
        if (message.error) {
          clearTimeout(timer);
          reject(new NodeRpcError(message.error.code, message.error.message, message.error.data));
          return socket.terminate();
        }
        if (!confirmed) {
          // the first answer under our id is the subscription's confirmation ({})
          confirmed = true;
          clearTimeout(timer);
          return resolve();
        }
        if (message.result?.data) for (const listener of [...listeners]) listener.event(message.result as StreamedEvent);
      });
      socket.on("error", () => socket.terminate()); // "close" follows
      socket.on("close", () => {
        clearTimeout(timer);
        reject(new NodeUnavailableError(this.rpcUrl, "the websocket closed before the subscription held"));
        if (this.upstreams.get(query)?.socket === socket) this.upstreams.delete(query);
        for (const listener of [...listeners]) listener.end("the node's websocket closed");
      });
    });
    ready.catch(() => undefined); // a refusal is reported to each subscriber that awaits it
    return { listeners, ready, socket };
  }
}
