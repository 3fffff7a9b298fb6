import type { ChainClient, StreamedEvent } from "../client/chainClient.js";
import { blockEvents, streamedEvent, type BlockJson, type BlockResultsJson, type PublishedEvent } from "../events/blockEvents.js";
import { EventQuery } from "../events/eventQuery.js";
import { VALIDATOR_SET_UPDATES_ATTRIBUTES, validatorSetUpdates, type ValidatorJson } from "../events/validatorSetUpdates.js";

/** The most blocks a resuming stream is sent (the newest ones): a client further behind misses the older. */
const MAX_RESUMED_BLOCKS = 1000;

/** An event id as the stream writes them: a height, or height.index. */
const EVENT_ID = /^([0-9]{1,15})(?:\.([0-9]{1,9}))?$/;

/** Where a client stopped: the height of the last event it saw, and the tx index when that was a Tx. */
export interface ResumePoint {
  height: number;
  txIndex?: number;
}

/** The point a Last-Event-ID names ("12": {12}, "12.3": {12, 3}), or undefined for none or another text. */
export function resumePointOf(id: string | undefined): ResumePoint | undefined {
  const m = id ? EVENT_ID.exec(id) : null;
  if (!m) return undefined;
  return m[2] === undefined ? { height: Number(m[1]) } : { height: Number(m[1]), txIndex: Number(m[2]) };
}

/**
 * The events matching `query` the client has not seen: those of block `from.height`
 * after the one it names, then those of every later block up to the latest (from
 * the oldest still kept, and at most MAX_RESUMED_BLOCKS blocks), block by block as
 * `block`, `block_results` and `validators` answer them.
 *
 * Within a block the order is the engine's (NewBlock, NewBlockHeader, Tx by index,
 * ValidatorSetUpdates), so id `H` (NewBlock or NewBlockHeader) resumes with H's
 * first Tx, and `H.i` with H's Tx i+1. ValidatorSetUpdates carries no id (its
 * data names no height): a client resuming at H is sent H's again if the query matches it.
 */
export async function* pastEvents(client: ChainClient, query: string, from: ResumePoint): AsyncGenerator<{ height: number; events: StreamedEvent[] }> {
  if (!client.blockResults) return;
  const parsed = new EventQuery(query);
  const { sync_info } = await client.status();
  const latest = Number(sync_info.latest_block_height);
  const earliest = Number((sync_info as { earliest_block_height?: string }).earliest_block_height ?? 1);
  const first = Math.max(from.height, earliest, latest - MAX_RESUMED_BLOCKS + 1);
  // the validator sets are read only when the query can match a ValidatorSetUpdates (its attributes are fixed)
  const sets = parsed.matches(VALIDATOR_SET_UPDATES_ATTRIBUTES) ? new ValidatorSets(client, earliest) : undefined;
  for (let height = first; height <= latest; height++) {
    const [block, results] = await Promise.all([client.block(height), client.blockResults(height)]);
    const events: PublishedEvent[] = blockEvents((block as { block: BlockJson }).block, results as unknown as BlockResultsJson);
    const updates = sets ? validatorSetUpdates(await sets.at(height - 1), await sets.at(height)) : undefined;
    if (updates) events.push(updates);
    const unseen = height === from.height ? events.filter((e) => isAfter(e, from.txIndex)) : events;
    yield { height, events: unseen.filter((e) => parsed.matches(e.events)).map((e) => streamedEvent(parsed.text, e)) };
  }
}

/** Whether an event of the resume point's block comes after the one the client saw last (NewBlock/NewBlockHeader: none, or Tx `seenTx`). */
function isAfter(event: PublishedEvent, seenTx: number | undefined): boolean {
  const tx = (event.data.value as { TxResult?: { index?: number } }).TxResult;
  if (tx) return seenTx === undefined || (tx.index ?? 0) > seenTx;
  return event.data.type === "tendermint/event/ValidatorSetUpdates";
}

/** The validator set of each height (every page of `validators`), keeping the last two read. */
class ValidatorSets {
  private readonly kept = new Map<number, ValidatorJson[]>();

  constructor(
    private readonly client: ChainClient,
    private readonly earliest: number,
  ) {}

  async at(height: number): Promise<ValidatorJson[]> {
    let set = this.kept.get(height);
    if (!set) {
      // before the oldest kept block there is nothing to compare with: the first block's set then counts as unchanged
      set = height < this.earliest ? await this.at(height + 1) : await this.read(height);
      this.kept.set(height, set);
      for (const old of this.kept.keys()) if (old < height - 1) this.kept.delete(old);
    }
    return set;
  }

  private async read(height: number): Promise<ValidatorJson[]> {
    const out: ValidatorJson[] = [];
    for (let page = 1; ; page++) {
      const answer = (await this.client.validators(height, page, 100)) as { validators?: ValidatorJson[]; total?: string };
      out.push(...(answer.validators ?? []));
      if ((answer.validators ?? []).length === 0 || out.length >= Number(answer.total ?? 0)) return out;
    }
  }
}
