/**
 * Messages over a worker channel leave in batches: everything sent during one
 * turn of the event loop (the requests of one poll, and the answers that came
 * back in it) goes as one message at its end (setImmediate). Each message on
 * Node's IPC channel is a write, a wake-up of the other process and a
 * deserialization; on the loaded 2-core machine a wake-up is the dear part.
 */
export interface Batch<M> {
  kind: "batch";
  messages: M[];
}

/** A send function that gathers what it is given during a turn and hands it to `send` as one Batch. */
export function batchedSender<M>(send: (batch: Batch<M>) => void): (message: M) => void {
  let queued: M[] = [];
  const flush = () => {
    const messages = queued;
    queued = [];
    send({ kind: "batch", messages });
  };
  return (message) => {
    if (queued.length === 0) setImmediate(flush);
    queued.push(message);
  };
}

/** Each message of a batch (or the message itself, when it is not one) to `handle`. */
export function eachMessage<M>(received: unknown, handle: (message: M) => void): void {
  const batch = received as Partial<Batch<M>>;
  if (batch.kind === "batch" && Array.isArray(batch.messages)) for (const message of batch.messages) handle(message);
  else handle(received as M);
}
