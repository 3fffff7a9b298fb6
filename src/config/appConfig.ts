import fs from "node:fs";
import path from "node:path";
import { DURATION_PATTERN, LISTEN_ADDRESS_PATTERN, loadTomlConfig } from "./tomlConfig.js";
import { defaultSettingsText, settingsSchema, type SettingsFile, type SettingsValues } from "./settings.js";

const BOOLEAN = "true or false";
/** A comma-separated list of IPv4/IPv6 address characters (each entry is checked as an address at start); linear: no two parts can match the same text. */
const TRUSTED_PROXIES_PATTERN = "^([0-9A-Fa-f:.]+(\\s*,\\s*[0-9A-Fa-f:.]+)*)?$";

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
        "naming profile: `seed` (the specification's names) or `cosmos` (the real system's: `cosmos`, `irismod`, `irishub`, `tendermint`); see [Real-world names](docs/guide/naming-profiles.md)",
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
      "newer-routes": {
        default: true,
        expected: BOOLEAN,
        comment: [
          "Whether the routes newer SDKs added (routes.yaml entries with since:) are served; false leaves",
          "exactly v0.41's surface, in the routes and in the OpenAPI file.",
        ],
        meaning:
          "serve the routes newer SDKs added (`since:` in `routes.yaml`) beside v0.41's; `false` leaves exactly v0.41's surface, routes and OpenAPI file alike",
      },
      "max-open-connections": {
        default: 1000,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0 (0 = no limit)",
        comment: [
          "Maximum number of requests answered at once, request heads late past a second included",
          "(0 = no limit). More requests wait for a place up to rpc-read-timeout, then are answered 503.",
          "Silent and idle connections do not count: see max-idle-connections.",
        ],
        meaning:
          "requests answered at once, heads that take over a second to arrive included (`0`: no limit); see [Slow clients and the connection limit](docs/guide/serving-http.md#slow-clients-and-the-connection-limit)",
      },
      "max-idle-connections": {
        default: 10000,
        integer: true,
        rules: { minimum: 1 },
        expected: "an integer >= 1",
        comment: [
          "Maximum number of connections kept open while they are not being answered (silent, idle",
          "between keep-alive requests, sending a head). At the bound a new connection takes the place",
          "of the one longest without a request. Lowered at start to what ulimit -n leaves.",
        ],
        meaning:
          "connections kept open while not being answered (silent, idle, sending a head; a few kB each); at the bound a new one replaces the one longest without a request; lowered at start to what `ulimit -n` leaves",
      },
      "rate-limit": {
        default: 0,
        rules: { minimum: 0 },
        expected: "a number of requests a second >= 0 (0 = no limit)",
        comment: [
          "Requests a second each client address may make (0 = no limit); over it a request is",
          "answered 429 with Retry-After. The address is the connection's peer, or the client a",
          "trusted proxy names in X-Forwarded-For.",
        ],
        meaning:
          "requests a second per client address (`0`: no limit); over it `429`, `Retry-After` and the error body; see [Per-client rate limit](docs/guide/serving-http.md#per-client-rate-limit)",
      },
      "rate-limit-burst": {
        default: 0,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0 (0 = one second's worth)",
        comment: ["Requests a client may make at once after a quiet while (0 = rate-limit's one second's worth)."],
        meaning: "requests a client may make at once after a quiet while (`0`: one second's worth of `api.rate-limit`)",
      },
      "trusted-proxies": {
        default: "",
        rules: { pattern: TRUSTED_PROXIES_PATTERN },
        expected: 'comma-separated IP addresses, like "127.0.0.1, 10.0.0.2"',
        comment: ["Comma-separated addresses of proxies whose X-Forwarded-For names the client (for rate-limit)."],
        meaning:
          "comma-separated addresses of proxies in front whose `X-Forwarded-For` names the client, for `api.rate-limit` (none by default: the peer is the client)",
      },
      workers: {
        default: 1,
        integer: true,
        rules: { type: ["integer", "string"], minimum: 1, maximum: 256, pattern: "^auto$" },
        expected: 'an integer from 1 to 256, or "auto" (one per core)',
        comment: [
          'Processes that serve the REST port together ("auto" = one per core; 1 = the REST server runs',
          "in the main process). Each has its own answer cache, connection limits and rate limit buckets.",
        ],
        meaning:
          'processes serving the REST port together, sharing its listening socket (`"auto"`: one per core; `1`: the REST server runs in the main process); answer cache, connection limits and rate limit are per worker, metrics are summed; see [Every core: api.workers](docs/design/workers.md#every-core-apiworkers)',
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
          "seconds an HTTP cache may reuse an answer at the latest height (`Cache-Control: public, max-age=N`); `0` = `no-cache` (revalidated by its `ETag`); see [HTTP caching and compression](docs/guide/serving-http.md#http-caching-and-compression)",
      },
      "max-page-limit": {
        default: 1000,
        integer: true,
        rules: { minimum: 1 },
        expected: "an integer >= 1",
        comment: [
          "Largest pagination.limit (legacy: ?limit=) a client may ask; more is answered 400 naming this",
          "setting. A limit of 0 keeps its meaning (100, or this cap when lower).",
        ],
        meaning:
          "largest `pagination.limit` (legacy `?limit=`) a client may ask; over it `400` naming this setting; see [Bounded queries](docs/guide/bounded-queries.md)",
      },
      "max-page-offset": {
        default: 10000,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0",
        comment: [
          "Largest pagination.offset (legacy: (page - 1) x limit) a client may ask; more is answered 400",
          "(pages further on are read by pagination.key).",
        ],
        meaning:
          "largest `pagination.offset` (legacy `(page - 1) × limit`) a client may ask; over it `400` naming this setting (deeper pages are read by `pagination.key`)",
      },
      "max-count-total": {
        default: 10000,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0",
        comment: [
          "Most entries the embedded node scans past a page to count pagination.total. Past it an",
          "asked count_total is answered 400; the count a limit of 0 implies is left out (total 0).",
        ],
        meaning:
          "most entries the embedded node scans past a page to count `pagination.total`; past it an asked `count_total` is `400`, the count implied by `limit = 0` is left out (`total` 0)",
      },
      "disabled-routes": {
        default: "",
        rules: { pattern: "^[^\\n]{0,4096}$" },
        expected: 'comma-separated route templates such as "/txs, GET /core/bank/v1beta1/denom_owners/{denom}"',
        comment: [
          "Route templates (either family, as in routes.yaml and legacy-routes.yaml; an optional verb first)",
          "the operator turned off: they are answered 403 with the family's error body.",
        ],
        meaning: "comma-separated route templates (either family; an optional verb first) answered `403` with the family's error body",
      },
      "route-weights": {
        default: [
          ["holders", "20"],
          ["tx-search", "20"],
          ["validator-lists", "10"],
        ] as string[][],
        rules: {
          items: {
            type: "array",
            items: [
              { type: "string", pattern: "^[^\\n]{1,512}$" },
              { type: "string", pattern: "^[1-9][0-9]{0,5}$" },
            ],
            minItems: 2,
            maxItems: 2,
          },
        },
        expected: 'a list of [route class or template, weight] pairs such as [["holders", "20"]]',
        comment: [
          "Tokens of api.rate-limit a request takes, by route class (holders, tx-search, validator-lists,",
          "account-lists) or route template; other requests take 1.",
        ],
        meaning:
          "tokens of `api.rate-limit` a request takes, by route class (`holders`, `tx-search`, `validator-lists`, `account-lists`) or template; others take 1",
      },
      "log-requests": {
        default: "auto",
        rules: { enum: ["auto", "on", "off"] },
        expected: '"auto", "on" or "off"',
        comment: [
          "One log line per request (method, route template, status, duration, height, from the answer cache or not).",
          '"auto": on for `start` (a developer watches their calls), off for `gateway` (a public endpoint: the',
          "balancer or proxy in front usually logs requests already, and a line per request costs throughput).",
        ],
        meaning:
          "one log line per request (method, route template, status, duration, height, answered from the cache or not); `auto`: on for `start`, off for `gateway` (a public endpoint's balancer usually logs requests already, and each line costs throughput); see [Running it for others](docs/guide/operations.md)",
      },
    },
    telemetry: {
      "service-name": {
        default: "chain-rest",
        rules: { pattern: "^([A-Za-z_][A-Za-z0-9_-]*)?$" },
        expected: 'letters, digits, "_" and "-", such as "chain-rest", or ""',
        comment: ['Prefixed to every metric\'s name ("-" written "_"), or its service label with enable-service-label.'],
        meaning: "prefixed to every metric's name (`chain_rest_api_requests_total`; `-` becomes `_`), or the `service` label with `enable-service-label`",
      },
      enabled: {
        default: false,
        expected: BOOLEAN,
        comment: ["Serve GET /metrics on the REST port (when false it is an unknown path, as in v0.41)."],
        meaning: "serve `GET /metrics` on the REST port: v0.41's JSON form, or Prometheus' text format with `?format=prometheus` (`false`: an unknown path)",
      },
      "enable-hostname": {
        default: false,
        expected: BOOLEAN,
        comment: ["Prefix gauge names with the hostname."],
        meaning: "prefix gauge names with the host name (as v0.41's go-metrics did)",
      },
      "enable-hostname-label": {
        default: false,
        expected: BOOLEAN,
        comment: ["Add the hostname to every metric as the label host."],
        meaning: "add the `host` label to every metric",
      },
      "enable-service-label": {
        default: false,
        expected: BOOLEAN,
        comment: ["Add service-name to every metric as the label service instead of prefixing names with it."],
        meaning: "add `service-name` as the `service` label instead of prefixing names with it",
      },
      "prometheus-retention-time": {
        default: 0,
        integer: true,
        rules: { minimum: 0 },
        expected: "a number of seconds >= 0",
        comment: [
          "When positive, /metrics?format=prometheus answers Prometheus' text format (0: that format is",
          "refused with 400, as in v0.41). Every series is kept for the process's life: labels are bounded.",
        ],
        meaning:
          "when positive, `?format=prometheus` answers Prometheus' text format (`0`: 400, as in v0.41); series are never dropped (their labels are bounded: route templates, not paths)",
      },
      "global-labels": {
        default: [] as string[][],
        rules: { items: { type: "array", items: [{ type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }, { type: "string" }], minItems: 2, maxItems: 2 } },
        expected: 'a list of [name, value] pairs such as [["chain_id", "devnet-1"]]',
        comment: ["Labels added to every metric, as [name, value] pairs.", 'Example: [["chain_id", "devnet-1"]]'],
        meaning: 'labels added to every metric, as `[name, value]` pairs (`[["chain_id", "devnet-1"]]`)',
      },
    },
    gateway: {
      nodes: {
        default: [] as string[],
        rules: { items: { type: "string", pattern: "^https?://[^/\\s]+[^\\s]*$", maxLength: 2048 }, maxItems: 32 },
        expected: 'a list of node RPC URLs such as ["http://10.0.0.1:26657", "http://10.0.0.2:26657"]',
        comment: ["`gateway`: the nodes' RPC URLs when no --node is given (several: health-scored choice and failover)."],
        meaning: "`gateway`: the nodes' RPC URLs when no `--node` is given; see docs/guide/multi-node-gateway.md",
      },
      "archive-node": {
        default: "",
        rules: { pattern: "^$|^https?://[^/\\s]+[^\\s]*$", maxLength: 2048 },
        expected: 'a node RPC URL such as "http://10.0.0.9:26657", or ""',
        comment: ["`gateway`: a node that keeps old heights; asked only for heights the others no longer keep."],
        meaning: "`gateway`: a node keeping old heights, asked for pinned heights the others pruned (`--archive-node`)",
      },
      "probe-interval": {
        default: "2s",
        rules: { pattern: DURATION_PATTERN },
        expected: 'a duration like "2s" or "500ms"',
        comment: ["How often each node's status is asked (chain id, heights, latency)."],
        meaning: "how often each node's `/status` is probed",
      },
      "max-lag-blocks": {
        default: 5,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0",
        comment: ["A node more blocks than this behind the best node's height is not chosen for the latest height."],
        meaning: "a node further behind the best height is not chosen for latest-height requests",
      },
      "latency-window": {
        default: "2s",
        rules: { pattern: DURATION_PATTERN },
        expected: 'a duration like "2s"',
        comment: ["A node whose last probe took longer than this is not chosen."],
        meaning: "a node whose last probe took longer is not chosen",
      },
      "error-threshold": {
        default: 3,
        integer: true,
        rules: { minimum: 1 },
        expected: "an integer >= 1",
        comment: ["Consecutive failed calls or probes that take a node out for the cooldown."],
        meaning: "consecutive failures that take a node out for `gateway.cooldown`",
      },
      cooldown: {
        default: "10s",
        rules: { pattern: DURATION_PATTERN },
        expected: 'a duration like "10s"',
        comment: ["How long a node that failed error-threshold times in a row is left out."],
        meaning: "how long a failing node is left out",
      },
    },
    faucet: {
      enable: {
        default: false,
        expected: BOOLEAN,
        comment: ["Whether `start` serves a faucet (the HTTP API of @cosmjs/faucet) funded from a dev account."],
        meaning: "serve a faucet with @cosmjs/faucet's API; see [The faucet](docs/guide/dev-chain.md#the-faucet)",
      },
      address: {
        default: "tcp://127.0.0.1:4500",
        rules: { pattern: LISTEN_ADDRESS_PATTERN },
        expected: 'an address like "tcp://127.0.0.1:4500"',
        comment: ["Listen address of the faucet."],
        meaning: "faucet listen address",
      },
      amounts: {
        default: "10000000uhub",
        rules: { pattern: "^\\d{1,30}[a-zA-Z][a-zA-Z0-9/:._-]{2,127}(,\\d{1,30}[a-zA-Z][a-zA-Z0-9/:._-]{2,127}){0,31}$" },
        expected: 'coins such as "10000000uhub,5000000ustake" (one amount per denom)',
        comment: ["What one credit gives, per denom: the denoms the faucet offers."],
        meaning: "what one credit gives, per denom (the denoms offered)",
      },
      cooldown: {
        default: "24h",
        rules: { pattern: DURATION_PATTERN },
        expected: 'a duration like "24h", "30s" or "0s"',
        comment: ["How long an address waits between credits (0s: no wait)."],
        meaning: "how long an address waits between credits",
      },
      account: {
        default: 0,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0",
        comment: ["Which dev account (config/dev-accounts.json, m/44'/118'/0'/0/<account>) funds the faucet."],
        meaning: "the dev account (`m/44'/118'/0'/0/<account>` of `config/dev-accounts.json`) that funds the faucet",
      },
    },
  },
} satisfies SettingsFile;

export type AppConfig = SettingsValues<typeof APP_SETTINGS>;
/** The [api] section of app.toml, with the real system's keys. */
export type ApiConfig = AppConfig["api"];

function appConfigPath(home: string): string {
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
