import path from "node:path";
import { DURATION_PATTERN, LISTEN_ADDRESS_PATTERN, loadTomlConfig } from "./tomlConfig.js";
import { defaultSettingsText, settingsSchema, type SettingsFile, type SettingsValues } from "./settings.js";

/** {home}/config/config.toml: the embedded node's own settings, with the real node's keys, each once. */
export const NODE_SETTINGS = {
  header: ["Settings of the embedded node (the consensus-engine side of chain-rest)."],
  top: {
    moniker: {
      default: "chain-rest-node",
      rules: { minLength: 1 },
      expected: "a non-empty string",
      comment: ["Name of this node, shown in node info."],
      meaning: "node name",
    },
  },
  sections: {
    rpc: {
      laddr: {
        default: "tcp://127.0.0.1:26657",
        rules: { pattern: LISTEN_ADDRESS_PATTERN },
        expected: 'an address like "tcp://127.0.0.1:26657"',
        comment: ["Listen address of the node's JSON-RPC server."],
        meaning: "the node's JSON-RPC listen address",
      },
      cors_allowed_origins: {
        default: [] as string[],
        rules: { items: { type: "string", pattern: "^[^\\s,]{1,512}$" }, maxItems: 100 },
        expected: 'a list of origins such as ["https://explorer.example.com"] or ["*"] (at most one * in each)',
        comment: [
          'Origins a browser app may call the JSON-RPC from (CORS); empty: CORS is off. "*" allows any;',
          'an origin may hold one wildcard, e.g. "https://*.example.com". The consensus engine\'s key and default.',
        ],
        meaning: "origins a browser app may call the RPC from (CORS); empty: off, `*`: any",
      },
      cors_allowed_methods: {
        default: ["HEAD", "GET", "POST"] as string[],
        rules: { items: { type: "string", pattern: "^[A-Za-z]{1,16}$" }, maxItems: 16 },
        expected: 'a list of HTTP methods such as ["HEAD", "GET", "POST"]',
        comment: ["HTTP methods allowed in cross-domain requests (when cors_allowed_origins is set)."],
        meaning: "methods allowed across origins",
      },
      cors_allowed_headers: {
        default: ["Origin", "Accept", "Content-Type", "X-Requested-With", "X-Server-Time"] as string[],
        rules: { items: { type: "string", pattern: "^[A-Za-z0-9*-]{1,128}$" }, maxItems: 100 },
        expected: 'a list of header names such as ["Origin", "Content-Type"] or ["*"]',
        comment: ["Request headers allowed in cross-domain requests (when cors_allowed_origins is set)."],
        meaning: "request headers allowed across origins",
      },
      max_subscription_clients: {
        default: 100,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0",
        comment: ["Clients (websocket connections) that may hold event subscriptions at once."],
        meaning: "websocket connections that may hold subscriptions at once",
      },
      max_subscriptions_per_client: {
        default: 5,
        integer: true,
        rules: { minimum: 0 },
        expected: "an integer >= 0",
        comment: ["Subscriptions one websocket connection may hold."],
        meaning: "subscriptions one connection may hold",
      },
    },
    consensus: {
      create_empty_blocks: {
        default: false,
        expected: "true or false",
        comment: [
          "false: a block is made as soon as transactions are waiting (and never empty).",
          "true: a block is also made every create_empty_blocks_interval, empty or not.",
        ],
        meaning: "`false`: a block is made when transactions wait; `true`: also every interval",
      },
      create_empty_blocks_interval: {
        default: "1s",
        rules: { pattern: DURATION_PATTERN },
        expected: 'a duration like "1s" or "500ms"',
        comment: ['Interval between blocks when create_empty_blocks is true, e.g. "1s", "500ms".'],
        meaning: "that interval",
      },
    },
  },
} satisfies SettingsFile;

export type NodeConfig = SettingsValues<typeof NODE_SETTINGS>;

function nodeConfigPath(home: string): string {
  return path.join(home, "config", "config.toml");
}

export function loadNodeConfig(home: string): NodeConfig {
  return loadTomlConfig<NodeConfig>(nodeConfigPath(home), defaultSettingsText(NODE_SETTINGS), settingsSchema(NODE_SETTINGS));
}
