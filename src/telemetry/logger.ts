import { pino, type Logger as PinoLogger } from "pino";
import { PinoPretty } from "pino-pretty";

export type Logger = PinoLogger;
export type LogFormat = "text" | "json";

/**
 * The process's logger (pino), on stdout: JSON lines with `--log-format json`
 * (one object per line: level, time, msg and the line's fields), readable text
 * by default (pino-pretty, synchronous in the same thread). Lines carry what
 * the server did, never a request's body or headers, so nothing secret.
 */
export function createLogger(format: LogFormat, level = "info"): Logger {
  const options = { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label: string) => ({ level: label }) } };
  if (format === "json") return pino(options, pino.destination({ dest: 1, sync: false }));
  return pino(options, PinoPretty({ sync: true, colorize: false, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname", singleLine: true }));
}

/** Writes what is still buffered; resolves once written (before the process exits). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
