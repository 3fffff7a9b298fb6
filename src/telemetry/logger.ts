import { pino, type Logger as PinoLogger } from "pino";
import { LineBatch } from "./lineBatch.js";
import { textLine } from "./textLine.js";

export type Logger = PinoLogger;
export type LogFormat = "text" | "json";
export const LOG_FORMATS: readonly LogFormat[] = ["text", "json"];

/**
 * The process's logger (pino), on stdout: JSON lines with `--log-format json`
 * (one object per line: level, time, msg and the line's fields), readable text
 * by default (`[HH:MM:ss.mmm] LEVEL: msg {fields}`, local time). A call only
 * serializes its object and queues the line: the lines of an event-loop turn
 * are turned into the output format and written together once the turn's I/O
 * is handled (lineBatch.ts), so a request's answer never waits for its log
 * line, and every line is written before the process exits. Lines carry what
 * the server did, never a request's body or headers, so nothing secret.
 */
export function createLogger(format: LogFormat, level = "info", fd = 1): Logger {
  const options = {
    level,
    base: undefined,
    // text shows local clock time, made from the epoch in the batch; JSON keeps the ISO time in the line
    timestamp: format === "json" ? pino.stdTimeFunctions.isoTime : pino.stdTimeFunctions.epochTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return pino(options, new LineBatch(fd, format === "json" ? undefined : textLine));
}

/** Writes what is still queued; resolves once written (before the process exits). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
