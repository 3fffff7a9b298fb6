import { createHash } from "node:crypto";
import type { EventAttributes } from "../../events/eventQuery.js";
import type { StreamedEvent } from "../../client/chainClient.js";
import type { CommittedHeight, RpcEvent, RpcValidator } from "../chain/blockStore.js";

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
 * What the engine publishes for a committed height, in its order (state/execution.go
 * fireEvents): NewBlock, NewBlockHeader, one Tx per transaction, and
 * ValidatorSetUpdates when the validator set changed. The consensus-round events
 * (NewRound, NewRoundStep, CompleteProposal, Polka, Lock, Unlock, Relock, Vote,
 * ValidBlock, TimeoutPropose, TimeoutWait) have no equivalent: the embedded node
 * makes and commits a block in one step, with no rounds, proposals or gossiped votes.
 * NewEvidence neither: a single validator has no one to equivocate against.
 */
export function publishedEvents(record: CommittedHeight, previousValidators: readonly RpcValidator[] | undefined): PublishedEvent[] {
  const { block } = record.block;
  const height = block.header.height;
  const blockEvents = [...(record.results.begin_block_events ?? []), ...(record.results.end_block_events ?? [])];
  const resultBeginBlock = { events: record.results.begin_block_events ?? [] };
  const updates = previousValidators ? validatorUpdates(previousValidators, record.validators) : [];
  const resultEndBlock = { events: record.results.end_block_events ?? [], validator_updates: [] };
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
    const result = record.results.txs_results![index]!;
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
  if (updates.length > 0)
    out.push({
      data: { type: "tendermint/event/ValidatorSetUpdates", value: { validator_updates: updates } },
      events: new Map([["tm.event", ["ValidatorSetUpdates"]]]),
    });
  return out;
}

/** Validators whose power changed from one set to the next (power 0: left the set), as the event lists them. */
function validatorUpdates(before: readonly RpcValidator[], after: readonly RpcValidator[]): RpcValidator[] {
  const powerBefore = new Map(before.map((v) => [v.address, v.voting_power]));
  const changed = after.filter((v) => powerBefore.get(v.address) !== v.voting_power);
  const stillThere = new Set(after.map((v) => v.address));
  const left = before.filter((v) => !stillThere.has(v.address)).map((v) => ({ ...v, voting_power: "0", proposer_priority: "0" }));
  return [...changed, ...left];
}

/** Every attribute of every event with a type (all of them, indexed or not, as the event bus takes them), then the reserved keys. */
function attributesOf(events: readonly RpcEvent[], reserved: Array<[string, string]>): EventAttributes {
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
