import { pino } from "pino";

/** Turns one of pino's JSON lines into the line written (the readable text), or undefined: written as it is. */
export type RenderLine = (jsonLine: string) => string;

/** Lines queued before they are written at once, whatever the turn: the queue's bound. */
export const MAX_QUEUED_LINES = 1024;

const open = new Set<LineBatch>();

/**
 * pino's destination: the lines logged during one event-loop turn are queued
 * as pino made them and written together in one blocking write once the turn's
 * I/O is handled (setImmediate), rendered to text there when asked. A line then
 * costs its serialization and a push where it is logged, and a request's
 * answer is sent before its log line is rendered or written. The write blocks
 * (never a buffer that grows behind a slow terminal or pipe), and lines still
 * queued are written when the process exits, whatever ends it.
 */
export class LineBatch {
  private queued: string[] = [];
  private scheduled = false;
  private readonly destination: ReturnType<typeof pino.destination>;

  constructor(
    fd: number,
    private readonly render?: RenderLine,
  ) {
    this.destination = pino.destination({ dest: fd, sync: true });
    if (open.size === 0) process.on("exit", flushOpenBatches);
    open.add(this);
  }

  write(line: string): void {
    this.queued.push(line);
    if (this.queued.length >= MAX_QUEUED_LINES) this.flushSync();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushScheduled);
    }
  }

  /** pino's logger.flush(cb). */
  flush(done?: (err?: Error) => void): void {
    try {
      this.flushSync();
    } catch (err) {
      done?.(err as Error);
      return;
    }
    done?.();
  }

  flushSync(): void {
    if (this.queued.length === 0) return;
    const lines = this.queued;
    this.queued = [];
    this.destination.write(this.render ? lines.map(this.render).join("") : lines.join(""));
  }

  private readonly flushScheduled = (): void => {
    this.scheduled = false;
    this.flushSync();
  };
}

function flushOpenBatches(): void {
  for (const batch of open) batch.flushSync();
}
