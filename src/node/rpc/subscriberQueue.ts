import type { WebSocket } from "ws";

/** What a subscriber may leave unsent (bytes its connection has not taken) before it is cut. */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/**
 * Sends to one websocket subscriber, bounding what it leaves unread. A
 * subscriber that stops reading fills its connection's socket buffers, then
 * the bytes Node holds for it (ws's bufferedAmount): once those pass the bound
 * it is cut, so it is never buffered without bound (the engine cancels such a
 * subscription too). A burst to a client that reads is not cut: the kernel takes
 * what it can at once, and the rest is within the bound.
 */
export class SubscriberQueue {
  private cut = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly onCut: () => void,
    private readonly maxUnsentBytes = MAX_UNSENT_BYTES,
  ) {}

  /** Sends a message, or cuts the subscriber when more than the bound is still unsent. */
  send(message: unknown): void {
    if (this.cut || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > this.maxUnsentBytes) {
      this.cut = true;
      this.onCut();
      this.socket.terminate();
      return;
    }
    this.socket.send(JSON.stringify(message));
  }
}
