import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChainClient } from "../../src/client/chainClient.js";
import type { Codec } from "../../src/codec/codec.js";
import { startRestServer } from "../../src/commands/restServer.js";
import type { ListeningServer } from "../../src/server/httpServer.js";
import { createLogger, type Logger } from "../../src/telemetry/logger.js";
import { Telemetry } from "../../src/telemetry/telemetry.js";
import type { RunningServer } from "../../src/util/runningServer.js";
import { Scrape } from "./prometheusScrape.js";
import { testApiConfig } from "./testApiConfig.js";
import { TEST_TELEMETRY } from "./testTelemetry.js";

/** A REST server (CORS on, no /swagger) with telemetry and a JSON request log in a file of its own. */
export interface LoggedRestServer {
  rest: RunningServer & { listening: ListeningServer };
  telemetry: Telemetry;
  logger: Logger;
  logFile: string;
  /** The server's metrics now. */
  scrape: () => Promise<Scrape>;
}

export async function loggedRestServer(client: ChainClient, codec: Codec): Promise<LoggedRestServer> {
  const telemetry = new Telemetry(TEST_TELEMETRY);
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "request-log-")), "requests.log");
  const logger = createLogger("json", "info", fs.openSync(logFile, "w"));
  const rest = await startRestServer(testApiConfig({ swagger: false, "enabled-unsafe-cors": true }), "hub", client, codec, undefined, {
    telemetry,
    requestLog: logger,
  });
  return { rest, telemetry, logger, logFile, scrape: async () => new Scrape(await telemetry.registry.metrics()) };
}
