import path from "node:path";
import { DURATION_PATTERN, LISTEN_ADDRESS_PATTERN, loadTomlConfig } from "./tomlConfig.js";

/** {home}/config/config.toml: the embedded node's own settings, with the real node's keys. */
export interface NodeConfig {
  moniker: string;
  rpc: { laddr: string };
  consensus: { create_empty_blocks: boolean; create_empty_blocks_interval: string };
}

const DEFAULT_CONFIG_TOML = `# Settings of the embedded node (the consensus-engine side of chain-rest).

# Name of this node, shown in node info.
moniker = "chain-rest-node"

[rpc]

# Listen address of the node's JSON-RPC server.
laddr = "tcp://127.0.0.1:26657"

[consensus]

# false: a block is made as soon as transactions are waiting (and never empty).
# true: a block is also made every create_empty_blocks_interval, empty or not.
create_empty_blocks = false

# Interval between blocks when create_empty_blocks is true, e.g. "1s", "500ms".
create_empty_blocks_interval = "1s"
`;

const SCHEMA = {
  type: "object",
  properties: {
    moniker: { type: "string", minLength: 1, default: "chain-rest-node", description: "a non-empty string" },
    rpc: {
      type: "object",
      default: {},
      properties: {
        laddr: { type: "string", pattern: LISTEN_ADDRESS_PATTERN, default: "tcp://127.0.0.1:26657", description: 'an address like "tcp://127.0.0.1:26657"' },
      },
    },
    consensus: {
      type: "object",
      default: {},
      properties: {
        create_empty_blocks: { type: "boolean", default: false, description: "true or false" },
        create_empty_blocks_interval: { type: "string", pattern: DURATION_PATTERN, default: "1s", description: 'a duration like "1s" or "500ms"' },
      },
    },
  },
};

export function nodeConfigPath(home: string): string {
  return path.join(home, "config", "config.toml");
}

export function loadNodeConfig(home: string): NodeConfig {
  return loadTomlConfig<NodeConfig>(nodeConfigPath(home), DEFAULT_CONFIG_TOML, SCHEMA);
}
