import fs from "node:fs";
import path from "node:path";
import { LISTEN_ADDRESS_PATTERN, loadTomlConfig } from "./tomlConfig.js";
import { defaultSettingsText, settingsSchema, type SettingsFile, type SettingsValues } from "./settings.js";

const BOOLEAN = "true or false";

/** {home}/config/app.toml: every setting once (default, rules, file comment, README meaning). */
export const APP_SETTINGS = {
  header: ["chain-rest application settings (read at start; a wrong type or value stops", "the start with the file, key and expected value)."],
  top: {
    "bech32-prefix": {
      default: "hub",
      rules: { pattern: "^[a-z]{1,20}$" },
      expected: 'lower-case letters such as "hub"',
      comment: [
        "Human-readable part of the embedded chain's account addresses (hub1...); the",
        'validator operator and consensus prefixes add "valoper" and "valcons".',
      ],
      meaning: "account address prefix of the embedded chain (`hubvaloper`, `hubvalcons` follow)",
    },
    names: {
      default: "seed",
      rules: { pattern: "^[a-z][a-z0-9-]*$" },
      expected: 'a profile of names.yaml: "seed" or "cosmos"',
      comment: [
        'Naming profile (names.yaml): "seed" speaks the specification\'s names (/core/bank/...,',
        'core.bank.v1beta1.MsgSend); "cosmos" the real system\'s (/cosmos/bank/..., cosmos-sdk/MsgSend),',
        "for its clients. A chain keeps the profile it was initialized with (its state holds the type URLs).",
      ],
      meaning:
        "naming profile: `seed` (the specification's names) or `cosmos` (the real system's: `cosmos`, `irismod`, `irishub`, `tendermint`); see [Real-world names](#real-world-names-the-cosmos-profile)",
    },
    "minimum-gas-prices": {
      default: "",
      rules: { pattern: "^$|^(\\d+(\\.\\d+)?[a-zA-Z][a-zA-Z0-9/:._-]{2,127})(,\\d+(\\.\\d+)?[a-zA-Z][a-zA-Z0-9/:._-]{2,127})*$" },
      expected: 'a list of decimal coins such as "0.025uhub", or ""',
      comment: ['Lowest gas price the embedded node accepts for a transaction, e.g. "0.025uhub";', "empty accepts any fee."],
      meaning: "lowest gas price the embedded node accepts",
    },
    "pruning-keep-recent": {
      default: 100,
      integer: true,
      rules: { minimum: 1 },
      expected: "an integer >= 1",
      comment: [
        "How many recent heights the embedded node keeps answerable for queries at a",
        "height (x-cosmos-block-height header, ?height= on legacy routes).",
      ],
      meaning: "how many recent heights stay queryable",
    },
  },
  sections: {
    api: {
      enable: {
        default: true,
        expected: BOOLEAN,
        comment: ["Whether the REST server runs."],
        meaning: "run the REST server (`false`: only the node and its RPC)",
      },
      address: {
        default: "tcp://0.0.0.0:1317",
        rules: { pattern: LISTEN_ADDRESS_PATTERN },
        expected: 'an address like "tcp://0.0.0.0:1317"',
        comment: ["Listen address of the REST server."],
        meaning: "REST listen address",
      },
      swagger: {
        default: true,
        expected: BOOLEAN,
        comment: ["Whether the OpenAPI file (GET /swagger) and its browsable UI (GET /swagger/) are served."],
        meaning: "serve the OpenAPI file at `GET /swagger` and its UI at `/swagger/` (`false`: both 404)",
      },
      "max-open-connections": {
        default: 1000,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0 (0 = no limit)",
        comment: [
          "Maximum number of simultaneous client connections (0 = no limit). More connections wait for a",
          "place (idle and silent ones give theirs up) up to rpc-read-timeout, then are answered 503.",
        ],
        meaning: "simultaneous connections (`0`: no limit); see [Slow clients and the connection limit](#slow-clients-and-the-connection-limit)",
      },
      "rpc-read-timeout": {
        default: 10,
        integer: true,
        rules: { minimum: 0 },
        expected: "a number of seconds >= 0",
        comment: ["Seconds allowed for reading a request (slower clients are cut), and for an answer from the node."],
        meaning:
          "seconds to read a request (head and body; a slower client is cut, within ¼ s of it, with `408`); also the time allowed for an answer from a remote node",
      },
      "rpc-write-timeout": {
        default: 0,
        integer: true,
        rules: { minimum: 0 },
        expected: "a number of seconds >= 0 (0 = no limit)",
        comment: ["Seconds allowed for writing a response (0 = no limit)."],
        meaning: "seconds to write a response (0 = no limit)",
      },
      "rpc-max-body-bytes": {
        default: 1000000,
        integer: true,
        rules: { minimum: 1 },
        expected: "a number of bytes >= 1",
        comment: ["Largest accepted request body in bytes; larger bodies are answered 413."],
        meaning: "larger request bodies are answered 413",
      },
      "enabled-unsafe-cors": {
        default: false,
        expected: BOOLEAN,
        comment: ["Answer cross-origin requests from any origin (adds CORS headers)."],
        meaning: "answer cross-origin requests from any origin",
      },
      "answer-cache-mb": {
        default: 32,
        integer: true,
        rules: { minimum: 0, maximum: 65536 },
        expected: "a number of megabytes from 0 (no reuse) to 65536",
        comment: [
          "Megabytes of answers kept for reuse: a GET asked again at the same latest height",
          "is kept and answered from memory until the next block (0 = no reuse).",
        ],
        meaning:
          "memory for reused answers: a GET answered 200 and asked again at the same height is kept, then answered from memory, same bytes, until the node's height moves (`start`: the node says so at each commit; `gateway --node`: its `NewBlock` websocket events, and no reuse while that subscription is down); least recently used answers leave first; `0` = no reuse",
      },
      "cache-max-age": {
        default: 0,
        integer: true,
        rules: { minimum: 0, maximum: 31536000 },
        expected: "a number of seconds from 0 to 31536000",
        comment: [
          "Seconds an HTTP cache may reuse an answer at the latest height without asking again",
          "(Cache-Control: public, max-age=N); 0 = no-cache: reused only after a 304 to its ETag.",
        ],
        meaning:
          "seconds an HTTP cache may reuse an answer at the latest height (`Cache-Control: public, max-age=N`); `0` = `no-cache` (revalidated by its `ETag`); see [HTTP caching and compression](#http-caching-and-compression)",
      },
    },
  },
} satisfies SettingsFile;

export type AppConfig = SettingsValues<typeof APP_SETTINGS>;
/** The [api] section of app.toml, with the real system's keys. */
export type ApiConfig = AppConfig["api"];

export function appConfigPath(home: string): string {
  return path.join(home, "config", "app.toml");
}

export function loadAppConfig(home: string): AppConfig {
  return loadTomlConfig<AppConfig>(appConfigPath(home), defaultSettingsText(APP_SETTINGS), settingsSchema(APP_SETTINGS));
}

/** Writes values of top-level keys into app.toml (init's --names and --prefix), keeping the rest of the file. */
export function writeTopSettings(home: string, values: Partial<Record<keyof typeof APP_SETTINGS.top, string>>): void {
  const file = appConfigPath(home);
  let text = fs.readFileSync(file, "utf8");
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const line = new RegExp(`^${key.replace(/-/g, "\\-")} = .*$`, "m");
    const written = `${key} = ${JSON.stringify(value)}`;
    text = line.test(text) ? text.replace(line, () => written) : `${written}\n${text}`;
  }
  fs.writeFileSync(file, text);
}
