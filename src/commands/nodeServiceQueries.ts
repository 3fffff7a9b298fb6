import type { AbciQueryResponse } from "../client/chainClient.js";
import type { Codec } from "../codec/codec.js";
import { names } from "../names/activeNames.js";
import type { EmbeddedNode } from "../node/embeddedNode.js";
import type { ServedQuery } from "./serviceQueries.js";

const NODE_SERVICE = "core.base.node.v1beta1.Service";

export interface NodeServiceSettings {
  /** app.toml minimum-gas-prices */
  minimumGasPrices: string;
  /** app.toml pruning-keep-recent */
  keepRecent: number;
}

/**
 * The node service (the SDK's cosmos.base.node.v1beta1, after v0.41) as ABCI
 * query handlers of the embedded node, as a real node registers it: Config
 * (minimum gas price, pruning settings) and Status (the earliest height still
 * answerable, the height asked (the latest by default), its time, app hash and validator hash).
 */
export function nodeServiceQueries(node: EmbeddedNode, codec: Codec, settings: NodeServiceSettings): ServedQuery[] {
  const service = codec.root.lookupService("." + names().protoName(NODE_SERVICE));
  const answer = (name: string, response: Record<string, unknown>, height: number): AbciQueryResponse => {
    const type = service.methods[name]!.resolvedResponseType!;
    return { code: 0, codespace: "", log: "", value: type.encode(type.fromObject(response)).finish(), height };
  };
  const path = (name: string) => `/${names().protoName(NODE_SERVICE)}/${name}`;
  return [
    {
      path: path("Config"),
      handler: (_data, height) =>
        Promise.resolve(
          answer(
            "Config",
            // the node prunes after every commit: an interval of one block; it has no halt height
            { minimum_gas_price: settings.minimumGasPrices, pruning_keep_recent: String(settings.keepRecent), pruning_interval: "1", halt_height: 0 },
            height,
          ),
        ),
    },
    {
      path: path("Status"),
      // at the height asked (the latest when none), as the real handler reads its query context's block:
      // read at the latest instead, two asks pinned to one height differed whenever a block landed between them
      handler: async (_data, height) => {
        const record = await node.committed(height);
        const header = record?.block.block.header;
        const time = header ? Date.parse(header.time) : 0;
        return answer(
          "Status",
          {
            earliest_store_height: node.store.earliestVersion,
            height,
            timestamp: header ? { seconds: Math.floor(time / 1000), nanos: (time % 1000) * 1_000_000 } : undefined,
            app_hash: Buffer.from(record?.appHash ?? "", "hex"), // the state's at `height` (the next header carries it)
            validator_hash: Buffer.from(header?.validators_hash ?? "", "hex"),
          },
          height,
        );
      },
    },
  ];
}
