import type { WebSocket } from "ws";

/**
 * The messages a websocket has been handed but not yet written to its
 * connection. A subscriber that stops reading fills the connection's socket
 * buffers, then this queue: past `limit` unwritten messages it is cut (the
 * engine cancels a subscription whose buffer of experimental_subscription_buffer_size
 * events is full), so it is never buffered without bound.
 */
export class SubscriberQueue {
  private unwritten = 0;
  private cut = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly limit: number,
    private readonly onCut: () => void,
  ) {}

  get pending(): number {
    return this.unwritten;
  }

  /** Sends a message, or cuts the subscriber when `limit` messages are still unwritten. */
  send(message: unknown): void {
    if (this.cut || this.socket.readyState !== this.socket.OPEN) return;
    if (this.unwritten >= this.limit) {
      this.cut = true;
      this.onCut();
      this.socket.terminate();
      return;
    }
    this.unwritten++;
    this.socket.send(JSON.stringify(message), () => this.unwritten--);
  }
}
