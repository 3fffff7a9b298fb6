import { pino, type Logger as PinoLogger } from "pino";
import { LineBatch, type LaterLine } from "./lineBatch.js";
import { clockTime, textLine } from "./textLine.js";

export type Logger = PinoLogger;
export type LogFormat = "text" | "json";

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
  return pino(options, new LineBatch(fd, format === "json" ? undefined : textLine, format === "json" ? jsonLater : textLater));
}

/**
 * An info line whose text is made only when its batch is written (the request log's lines): the
 * caller gives the values, which must not change afterwards, or their JSON members already
 * written (`"a":1,"b":"x"`: the request log joins them from parts made once per route); the line
 * goes out in the logger's format, in its order among the logger's other lines. Nothing is kept
 * when info is off.
 */
export function logLater(logger: Logger, msg: string, fields: object | string): void {
  if (!logger.isLevelEnabled("info")) return;
  const destination = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (destination instanceof LineBatch) destination.write({ time: Date.now(), level: "info", msg, fields });
  else logger.info(typeof fields === "string" ? (JSON.parse(`{${fields}}`) as object) : fields, msg);
}

/** The line's fields as JSON members, without the braces ("" for none). */
function membersOf(fields: object | string): string {
  return typeof fields === "string" ? fields : JSON.stringify(fields).slice(1, -1);
}

function jsonLater({ time, level, msg, fields }: LaterLine): string {
  const members = membersOf(fields);
  return `{"level":"${level}","time":"${new Date(time).toISOString()}"${members ? `,${members}` : ""},"msg":${JSON.stringify(msg)}}\n`;
}

/** The text form's level names, made once (a request line is written thousands of times a second). */
const LEVEL_TEXT: Record<string, string> = { trace: "TRACE", debug: "DEBUG", info: "INFO", warn: "WARN", error: "ERROR", fatal: "FATAL" };

function textLater({ time, level, msg, fields }: LaterLine): string {
  const members = membersOf(fields);
  return `[${clockTime(time)}] ${LEVEL_TEXT[level] ?? level.toUpperCase()}: ${msg}${members ? ` {${members}}` : ""}\n`;
}

/** Writes what is still queued; resolves once written (before the process exits). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
