/**
 * The dev node's clock: wall-clock time plus an offset that only grows
 * (advance_time). Block times come from it, so every module's time rules
 * (unbonding, gov periods, HTLC locks) see the moved time consistently.
 */
export class DevClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves time forward by this many seconds; gives the time the next block would have now. */
  advance(seconds: number): Date {
    this.offsetMs += seconds * 1000;
    return this.now();
  }

  /**
   * After a restart, time continues from the last block's time when an
   * earlier advance_time moved it past the wall clock (the offset is not
   * stored; without this, blocks would crawl 1 ms apart until the wall clock caught up).
   */
  /** How far the clock is ahead of the wall clock (a snapshot keeps it, a revert sets it back). */
  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = ms;
  }

  catchUp(lastBlockTime: Date): void {
    this.offsetMs = Math.max(this.offsetMs, lastBlockTime.getTime() - Date.now());
  }
}
