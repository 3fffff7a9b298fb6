import WebSocket from "ws";
import type { HeightListener } from "./chainClient.js";
import { websocketText } from "../util/websocketText.js";
import { SocketCalls, type RpcReply } from "./socketCalls.js";

const SUBSCRIBE_ID = "chain-rest-new-block";
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;

/**
 * The latest height of a node that speaks the consensus engine's JSON-RPC,
 * followed through its `/websocket` `NewBlock` events. Once subscribed it asks
 * the node's status for the height (blocks may be rare), then follows the
 * events; heights seen in the node's answers count too. When the connection
 * drops the listener is told `undefined` at once, and the feed reconnects.
 * While the socket is open, other JSON-RPC calls may be sent over it (`call`).
 */
export class NewBlockFeed {
  private socket: WebSocket | undefined;
  private calls: SocketCalls | undefined;
  private latest: number | undefined;
  /** The highest NewBlock height of the current subscription, seen before its status answer came. */
  private seen = 0;
  private live = false;
  private stopped = false;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rpcUrl: string,
    private readonly latestHeight: () => Promise<number>,
    private readonly listener: HeightListener,
    private readonly callTimeoutMs = 10_000,
  ) {
    this.connect();
  }

  /** A height the node answered with: the chain is at least there. Counts only while subscribed. */
  observe(height: number): void {
    if (this.live && this.latest !== undefined && height > this.latest) this.announce(height);
  }

  isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** A JSON-RPC call over the socket; undefined when it is not open or closes first (send it over HTTP then). */
  call(id: number, body: string): Promise<RpcReply | undefined> {
    return this.calls?.call(id, body) ?? Promise.resolve(undefined);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.socket?.terminate();
  }

  private connect(): void {
    const url = new URL("/websocket", this.rpcUrl.replace(/^http/, "ws"));
    const socket = new WebSocket(url);
    const calls = new SocketCalls(socket, this.callTimeoutMs);
    this.socket = socket;
    this.calls = calls;
    this.seen = 0;
    socket.once("upgrade", (response) => calls.useConnection(response.socket));
    socket.on("open", () => {
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: SUBSCRIBE_ID, method: "subscribe", params: { query: "tm.event='NewBlock'" } }));
    });
    socket.on("message", (raw) => this.onMessage(socket, websocketText(raw)));
    socket.on("error", () => socket.terminate()); // "close" follows
    socket.on("close", () => {
      calls.closed();
      this.onClose(socket);
    });
  }

  private onMessage(socket: WebSocket, text: string): void {
    let message: { id?: unknown; result?: { data?: { value?: { block?: { header?: { height?: string } } } } }; error?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return socket.terminate();
    }
    if (this.calls?.settle(message as RpcReply)) return;
    if (message.id !== SUBSCRIBE_ID) return;
    if (message.error) return socket.terminate();
    const height = Number(message.result?.data?.value?.block?.header?.height);
    if (Number.isSafeInteger(height) && height > 0) {
      if (this.live) this.announce(Math.max(height, this.latest ?? 0));
      else this.seen = Math.max(this.seen, height);
      return;
    }
    // The subscription is confirmed: from now on no block passes unseen; ask where the chain is.
    this.latestHeight().then(
      (latest) => {
        if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
        this.live = true;
        this.retryMs = RECONNECT_MIN_MS;
        this.announce(Math.max(latest, this.seen));
      },
      () => socket.terminate(),
    );
  }

  private onClose(socket: WebSocket): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.calls = undefined;
    if (this.live || this.latest !== undefined) {
      this.live = false;
      this.latest = undefined;
      this.listener(undefined);
    }
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }

  private announce(height: number): void {
    this.latest = height;
    this.listener(height);
  }
}
