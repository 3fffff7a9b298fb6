import { createLogger, flushLogger, type LogFormat, type Logger } from "./logger.js";

let current: { format: LogFormat; logger: Logger } | undefined;

/**
 * The one logger of this process: the node, the REST server and its errors, and the server
 * commands' own lines all go through it, so that `--log-format json` output is JSON from the
 * first line to the last. A server command names the format before anything logs; a call
 * that names none gets the logger as it is, or a text one (the default) when there is none yet.
 */
export function processLogger(format?: LogFormat): Logger {
  if (!current || (format !== undefined && format !== current.format)) {
    current?.logger.flush();
    const chosen = format ?? "text";
    current = { format: chosen, logger: createLogger(chosen) };
  }
  return current.logger;
}

/**
 * A command's failure, just before the process exits: through the logger where a server
 * command made one (its output stays one format), else plainly on stderr, as a one-shot
 * command (init, export, routes, the dev calls) reports it.
 */
export async function reportFailure(message: string): Promise<void> {
  if (!current) {
    process.stderr.write(`${message}\n`);
    return;
  }
  current.logger.fatal(message);
  await flushLogger(current.logger);
}
