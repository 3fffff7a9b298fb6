import type { ChainClient, StreamedEvent } from "../client/chainClient.js";
import { blockEvents, streamedEvent, type BlockJson, type BlockResultsJson } from "../events/blockEvents.js";
import { EventQuery } from "../events/eventQuery.js";

/** The most blocks a resuming stream is sent (the newest ones): a client further behind misses the older. */
export const MAX_RESUMED_BLOCKS = 1000;

/** An event id as the stream writes them: a height, or height.index. */
const EVENT_ID = /^([0-9]{1,15})(\.[0-9]{1,9})?$/;

/** The height a Last-Event-ID names ("12" and "12.3": 12), or undefined for none or another text. */
export function heightOfEventId(id: string | undefined): number | undefined {
  const m = id ? EVENT_ID.exec(id) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * The events matching `query` of the blocks after `after`, up to the latest
 * (from the oldest still kept, and at most MAX_RESUMED_BLOCKS), block by block
 * as `block` and `block_results` answer them. Not replayed: ValidatorSetUpdates
 * (it is made by comparing validator sets, which this does not read).
 */
export async function* pastEvents(client: ChainClient, query: string, after: number): AsyncGenerator<{ height: number; events: StreamedEvent[] }> {
  if (!client.blockResults) return;
  const parsed = new EventQuery(query);
  const { sync_info } = await client.status();
  const latest = Number(sync_info.latest_block_height);
  const earliest = Number((sync_info as { earliest_block_height?: string }).earliest_block_height ?? 1);
  for (let height = Math.max(after + 1, earliest, latest - MAX_RESUMED_BLOCKS + 1); height <= latest; height++) {
    const [block, results] = await Promise.all([client.block(height), client.blockResults(height)]);
    const events = blockEvents((block as { block: BlockJson }).block, results as unknown as BlockResultsJson);
    yield { height, events: events.filter((e) => parsed.matches(e.events)).map((e) => streamedEvent(parsed.text, e)) };
  }
}
