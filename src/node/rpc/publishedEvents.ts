import { blockEvents, streamedEvent, type PublishedEvent } from "../../events/blockEvents.js";
import type { CommittedHeight, RpcValidator } from "../chain/blockStore.js";

export { streamedEvent, type PublishedEvent };

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
  const out = blockEvents(record.block.block, record.results);
  const updates = previousValidators ? validatorUpdates(previousValidators, record.validators) : [];
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
