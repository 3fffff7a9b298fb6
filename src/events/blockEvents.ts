import { createHash } from "node:crypto";
import type { EventAttributes } from "./eventQuery.js";
import type { StreamedEvent } from "../client/chainClient.js";

/** An ABCI event as the engine's JSON-RPC writes it (key and value base64). */
interface EventJson {
  type: string;
  attributes: ReadonlyArray<{ key: string; value: string }>;
}

/** The parts of a block (`block` RPC's `block`) and of its results (`block_results`) the events are made of. */
export interface BlockJson {
  header: { height: string };
  data: { txs: string[] | null };
}
export interface BlockResultsJson {
  txs_results: ReadonlyArray<{ events: EventJson[] }> | null;
  begin_block_events: EventJson[] | null;
  end_block_events: EventJson[] | null;
}

/** One event as the engine's event bus publishes it: its data (amino JSON) and its attributes by composite key. */
export interface PublishedEvent {
  data: { type: string; value: unknown };
  events: EventAttributes;
}

/** A published event as a subscription to `query` receives it (the websocket message's `result`). */
export function streamedEvent(query: string, event: PublishedEvent): StreamedEvent {
  return { query, data: event.data, events: Object.fromEntries(event.events) as Record<string, string[]> };
}

/**
 * The events the engine publishes for a block, in its order (state/execution.go
 * fireEvents): NewBlock, NewBlockHeader, one Tx per transaction. Made from the
 * block and its results as the JSON-RPC answers them, so that a node's own
 * publisher and a reader of past blocks (the REST event stream's resume) make the same.
 */
export function blockEvents(block: BlockJson, results: BlockResultsJson): PublishedEvent[] {
  const height = block.header.height;
  const blockEvents = [...(results.begin_block_events ?? []), ...(results.end_block_events ?? [])];
  const resultBeginBlock = { events: results.begin_block_events ?? [] };
  const resultEndBlock = { events: results.end_block_events ?? [], validator_updates: [] };
  const out: PublishedEvent[] = [
    {
      data: { type: "tendermint/event/NewBlock", value: { block, result_begin_block: resultBeginBlock, result_end_block: resultEndBlock } },
      events: attributesOf(blockEvents, [["tm.event", "NewBlock"]]),
    },
    {
      data: {
        type: "tendermint/event/NewBlockHeader",
        value: { header: block.header, num_txs: String(block.data.txs?.length ?? 0), result_begin_block: resultBeginBlock, result_end_block: resultEndBlock },
      },
      events: attributesOf(blockEvents, [["tm.event", "NewBlockHeader"]]),
    },
  ];
  (block.data.txs ?? []).forEach((tx, index) => {
    const result = results.txs_results![index]!;
    const hash = createHash("sha256").update(Buffer.from(tx, "base64")).digest("hex").toUpperCase();
    out.push({
      data: { type: "tendermint/event/Tx", value: { TxResult: { height, index, tx, result } } },
      events: attributesOf(result.events, [
        ["tm.event", "Tx"],
        ["tx.hash", hash],
        ["tx.height", height],
      ]),
    });
  });
  return out;
}

/** Every attribute of every event with a type (all of them, indexed or not, as the event bus takes them), then the reserved keys. */
function attributesOf(events: readonly EventJson[], reserved: Array<[string, string]>): EventAttributes {
  const out = new Map<string, string[]>();
  const add = (key: string, value: string) => out.set(key, [...(out.get(key) ?? []), value]);
  for (const event of events) {
    if (!event.type) continue;
    for (const attribute of event.attributes) {
      const key = Buffer.from(attribute.key, "base64").toString();
      if (key) add(`${event.type}.${key}`, Buffer.from(attribute.value, "base64").toString());
    }
  }
  for (const [key, value] of reserved) add(key, value);
  return out;
}
