import type { Middleware, Next } from "koa";

/**
 * Requests that need work wait for the end of the event loop's I/O phase,
 * then run together. Node reads every ready connection in one phase and runs
 * each request's handler as its bytes arrive, so under load each query would run
 * between the kernel's socket work and Koa's for the next connection, and pay
 * for code and data that work pushed out of the CPU's caches. Held until
 * setImmediate (the check phase, straight after the I/O phase), the requests
 * of one turn run their steps one after another, warm, and write their answers
 * together (the client is woken once per batch of answers, not per answer).
 * A request alone waits only for the rest of its own turn. The gain is
 * measured by the REST throughput benchmarks (bench/results.json).
 */
export function turnBatching(turns: TurnBatch = new TurnBatch()): Middleware {
  return (_ctx, next: Next) => turns.endOfTurn().then(() => next());
}

/** The end of the current event-loop turn, one promise for every request held in it (the Koa layer's and directAnswers.ts'). */
export class TurnBatch {
  private turn: Promise<void> | undefined;

  endOfTurn(): Promise<void> {
    return (this.turn ??= new Promise((resolve) =>
      setImmediate(() => {
        this.turn = undefined;
        resolve();
      }),
    ));
  }
}
