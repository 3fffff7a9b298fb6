import path from "node:path";
import { LISTEN_ADDRESS_PATTERN, loadTomlConfig } from "./tomlConfig.js";

/** The [api] section of {home}/config/app.toml, with the real system's keys. */
export interface ApiConfig {
  enable: boolean;
  address: string;
  swagger: boolean;
  "max-open-connections": number;
  "rpc-read-timeout": number;
  "rpc-write-timeout": number;
  "rpc-max-body-bytes": number;
  "enabled-unsafe-cors": boolean;
  "answer-cache-mb": number;
}

export interface AppConfig {
  "bech32-prefix": string;
  "minimum-gas-prices": string;
  "pruning-keep-recent": number;
  api: ApiConfig;
}

const DEFAULT_APP_TOML = `# chain-rest application settings (read at start; a wrong type or value stops
# the start with the file, key and expected value).

# Human-readable part of the embedded chain's account addresses (hub1...); the
# validator operator and consensus prefixes add "valoper" and "valcons".
bech32-prefix = "hub"

# Lowest gas price the embedded node accepts for a transaction, e.g. "0.025uhub";
# empty accepts any fee.
minimum-gas-prices = ""

# How many recent heights the embedded node keeps answerable for queries at a
# height (x-cosmos-block-height header, ?height= on legacy routes).
pruning-keep-recent = 100

[api]

# Whether the REST server runs.
enable = true

# Listen address of the REST server.
address = "tcp://0.0.0.0:1317"

# Whether the OpenAPI file (GET /swagger) and its browsable UI (GET /swagger/) are served.
swagger = true

# Maximum number of simultaneous client connections (0 = no limit). More connections wait for a
# place (idle and silent ones give theirs up) up to rpc-read-timeout, then are answered 503.
max-open-connections = 1000

# Seconds allowed for reading a request (slower clients are cut), and for an answer from the node.
rpc-read-timeout = 10

# Seconds allowed for writing a response (0 = no limit).
rpc-write-timeout = 0

# Largest accepted request body in bytes; larger bodies are answered 413.
rpc-max-body-bytes = 1000000

# Answer cross-origin requests from any origin (adds CORS headers).
enabled-unsafe-cors = false

# Megabytes of answers kept for reuse: the same GET at the same latest height is
# answered again from memory until the next block (0 = no reuse).
answer-cache-mb = 32
`;

const SCHEMA = {
  type: "object",
  properties: {
    "bech32-prefix": { type: "string", pattern: "^[a-z]{1,20}$", default: "hub", description: 'lower-case letters such as "hub"' },
    "minimum-gas-prices": {
      type: "string",
      pattern: "^$|^(\\d+(\\.\\d+)?[a-zA-Z][a-zA-Z0-9/:._-]{2,127})(,\\d+(\\.\\d+)?[a-zA-Z][a-zA-Z0-9/:._-]{2,127})*$",
      default: "",
      description: 'a list of decimal coins such as "0.025uhub", or ""',
    },
    "pruning-keep-recent": { type: "integer", minimum: 1, default: 100, description: "an integer >= 1" },
    api: {
      type: "object",
      default: {},
      properties: {
        enable: { type: "boolean", default: true, description: "true or false" },
        address: { type: "string", pattern: LISTEN_ADDRESS_PATTERN, default: "tcp://0.0.0.0:1317", description: 'an address like "tcp://0.0.0.0:1317"' },
        swagger: { type: "boolean", default: true, description: "true or false" },
        "max-open-connections": { type: "integer", minimum: 0, default: 1000, description: "an integer >= 0 (0 = no limit)" },
        "rpc-read-timeout": { type: "integer", minimum: 0, default: 10, description: "a number of seconds >= 0" },
        "rpc-write-timeout": { type: "integer", minimum: 0, default: 0, description: "a number of seconds >= 0 (0 = no limit)" },
        "rpc-max-body-bytes": { type: "integer", minimum: 1, default: 1000000, description: "a number of bytes >= 1" },
        "enabled-unsafe-cors": { type: "boolean", default: false, description: "true or false" },
        "answer-cache-mb": { type: "integer", minimum: 0, maximum: 65536, default: 32, description: "a number of megabytes from 0 (no reuse) to 65536" },
      },
    },
  },
};

export function appConfigPath(home: string): string {
  return path.join(home, "config", "app.toml");
}

export function loadAppConfig(home: string): AppConfig {
  return loadTomlConfig<AppConfig>(appConfigPath(home), DEFAULT_APP_TOML, SCHEMA);
}
