import { batchedSender, eachMessage } from "./batching.js";
import type { MainToWorker, WorkerToMain } from "./messages.js";
import { receivedError } from "./sentErrors.js";

/** Sends to the main process and hears from it (process.send / process.on("message") in a cluster worker). */
export interface WorkerChannel {
  send(message: WorkerToMain): void;
  onMessage(listener: (message: MainToWorker) => void): void;
}

/** A cluster worker's channel to its main process (messages sent in batches, batching.ts). */
export function processChannel(): WorkerChannel {
  return {
    send: batchedSender((batch) => process.send!(batch)),
    onMessage: (listener) => process.on("message", (received) => eachMessage(received, listener)),
  };
}

/**
 * A worker's side of the channel: requests matched to their replies by id,
 * other messages handed to listeners. What waits is bounded by the requests
 * the worker answers at once (api.max-open-connections).
 */
export class MainLink {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  private readonly listeners: Array<(message: MainToWorker) => void> = [];

  constructor(private readonly channel: WorkerChannel) {
    channel.onMessage((message) => {
      if (message.kind === "reply") return this.settle(message);
      for (const listener of this.listeners) listener(message);
    });
  }

  id(): number {
    return this.nextId++;
  }

  send(message: WorkerToMain): void {
    this.channel.send(message);
  }

  /** Sends a message with an id and resolves with the reply of that id. */
  request(message: WorkerToMain & { id: number }): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject });
      this.channel.send(message);
    });
  }

  on(listener: (message: MainToWorker) => void): void {
    this.listeners.push(listener);
  }

  private settle(reply: Extract<MainToWorker, { kind: "reply" }>): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.error) waiting.reject(receivedError(reply.error));
    else waiting.resolve(reply.result);
  }
}
