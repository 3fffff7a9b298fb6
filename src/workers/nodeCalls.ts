import type { ChainClient } from "../client/chainClient.js";
import { CALLED_METHODS } from "./messages.js";
import type { WorkerPort } from "./restWorkers.js";
import { sendableError } from "./sentErrors.js";

const CALLABLE = new Set<string>(CALLED_METHODS);

/**
 * The node's side of a `start` worker's ChannelClient: runs its calls on the
 * node's client and forwards the events of its subscriptions. A worker's
 * subscriptions end when it exits.
 */
export function serveNodeCalls(worker: WorkerPort, client: ChainClient): void {
  const send = worker.send;
  const subscriptions = new Map<number, () => void>();
  worker.onMessage((message) => {
    if (message.kind === "call") {
      if (!CALLABLE.has(message.method)) return send({ kind: "reply", id: message.id, error: { name: "Error", message: `no method ${message.method}` } });
      const method = (client as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>)[message.method];
      if (!method) return send({ kind: "reply", id: message.id, error: { name: "Error", message: `the node has no ${message.method}` } });
      Promise.resolve(method.apply(client, message.args)).then(
        (result) => send({ kind: "reply", id: message.id, result }),
        (err: unknown) => send({ kind: "reply", id: message.id, error: sendableError(err) }),
      );
    } else if (message.kind === "subscribe") {
      const { id } = message;
      client.subscribeEvents!(message.query, {
        event: (event) => send({ kind: "event", id, event }),
        end: (reason) => {
          subscriptions.delete(id);
          send({ kind: "end", id, reason });
        },
      }).then(
        (stop) => {
          subscriptions.set(id, stop);
          send({ kind: "reply", id });
        },
        (err: unknown) => send({ kind: "reply", id, error: sendableError(err) }),
      );
    } else if (message.kind === "unsubscribe") {
      subscriptions.get(message.id)?.();
      subscriptions.delete(message.id);
    }
  });
  worker.onExit(() => {
    for (const stop of subscriptions.values()) stop();
    subscriptions.clear();
  });
}
