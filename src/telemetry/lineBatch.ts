import { pino } from "pino";

/** Turns one of pino's JSON lines into the line written (the readable text), or undefined: written as it is. */
export type RenderLine = (jsonLine: string) => string;

/** A line kept as its values, made into text only when its batch is written. */
export interface LaterLine {
  time: number;
  level: string;
  msg: string;
  /** The values, or their JSON members already written (logger.ts logLater). */
  fields: object | string;
}

/** Makes a LaterLine's text, in the batch's format. */
export type FormatLater = (line: LaterLine) => string;

/** Lines queued before they are written at once, whatever the time: the queue's bound. */
export const MAX_QUEUED_LINES = 1024;
/** How long the first line of a batch may wait for the others. */
export const FLUSH_AFTER_MS = 10;

/** The batches to write at exit: one per logger made (a server process makes one). */
const open = new Set<LineBatch>();

/**
 * pino's destination: lines are queued as pino made them and written together
 * in one blocking write FLUSH_AFTER_MS after the first of them (or once
 * MAX_QUEUED_LINES wait), rendered to text there when asked. A line then
 * costs its serialization and a push where it is logged, a request's answer
 * is sent before its log line is rendered or written, and the write's system
 * call is shared by the many lines of those milliseconds. The write blocks
 * (never a buffer that grows behind a slow terminal or pipe), and lines still
 * queued are written when the process exits, whatever ends it.
 */
export class LineBatch {
  private queued: Array<string | LaterLine> = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly destination: ReturnType<typeof pino.destination>;

  constructor(
    fd: number,
    private readonly render: RenderLine | undefined,
    private readonly formatLater: FormatLater,
  ) {
    this.destination = pino.destination({ dest: fd, sync: true });
    if (open.size === 0) process.on("exit", flushOpenBatches);
    open.add(this);
  }

  write(line: string | LaterLine): void {
    this.queued.push(line);
    if (this.queued.length >= MAX_QUEUED_LINES) this.flushSync();
    else if (!this.timer) this.timer = setTimeout(this.flushScheduled, FLUSH_AFTER_MS).unref(); // the exit writes what waits
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
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queued.length === 0) return;
    const lines = this.queued;
    this.queued = [];
    let text = "";
    for (const line of lines) text += typeof line !== "string" ? this.formatLater(line) : this.render ? this.render(line) : line;
    this.destination.write(text);
  }

  private readonly flushScheduled = (): void => this.flushSync();
}

function flushOpenBatches(): void {
  for (const batch of open) batch.flushSync();
}
