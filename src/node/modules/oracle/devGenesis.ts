import type { DevGenesisContext } from "../devGenesisContext.js";
import { devAddress } from "../shared/devAddresses.js";
import { upperHex } from "../shared/hexBytes.js";
import { devRequestContextIds } from "../service/devGenesis.js";

/**
 * Two feeds on the service module's "price-feed" contexts: hub-usdt, running,
 * with the averaged values of its two completed batches (oldest first), and
 * hub-btc, paused before its first batch.
 */
export function oracleDevGenesis(ctx: DevGenesisContext): unknown {
  const ids = devRequestContextIds(ctx.chainId);
  const before = (seconds: number) => new Date(ctx.genesisTime.getTime() - seconds * 1000).toISOString();
  const feed = (name: string, description: string, aggregate: string, history: string, contextId: Uint8Array) => ({
    feed_name: name,
    description,
    aggregate_func: aggregate,
    value_json_path: "rate",
    latest_history: history,
    request_context_id: upperHex(contextId),
    creator: devAddress(ctx, 0),
  });
  return {
    entries: [
      {
        feed: feed("hub-usdt", "HUB/USDT price, the average of the providers' rates", "avg", "10", ids.hubUsdtFeed),
        state: "RUNNING",
        values: [
          { data: "1.2725", timestamp: before(200) },
          { data: "1.2738", timestamp: before(100) },
        ],
      },
      { feed: feed("hub-btc", "HUB/BTC price, the highest of the providers' rates", "max", "5", ids.hubBtcFeed), state: "PAUSED", values: [] },
    ],
  };
}
