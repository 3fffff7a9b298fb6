import type { AppConfig } from "../config/appConfig.js";
import type { LogFormat, Logger } from "../telemetry/logger.js";
import { processLogger } from "../telemetry/processLogger.js";
import { Telemetry } from "../telemetry/telemetry.js";

export interface Operations {
  logger: Logger;
  /** [telemetry] enabled. */
  telemetry?: Telemetry;
  /** api.log-requests ("auto": on for start, off for gateway). */
  requestLog?: Logger;
}

/** The logger, the metrics and the request log of a `start` or `gateway` process, from app.toml and --log-format. */
export function operations(app: AppConfig, format: LogFormat, command: "start" | "gateway"): Operations {
  const logger = processLogger(format);
  const setting = app.api["log-requests"];
  const logRequests = setting === "on" || (setting === "auto" && command === "start");
  return {
    logger,
    telemetry: app.telemetry.enabled ? new Telemetry(app.telemetry) : undefined,
    requestLog: logRequests ? logger : undefined,
  };
}
