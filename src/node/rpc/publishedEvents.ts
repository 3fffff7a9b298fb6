import { blockEvents, streamedEvent, type PublishedEvent } from "../../events/blockEvents.js";
import { validatorSetUpdates } from "../../events/validatorSetUpdates.js";
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
  const updates = previousValidators ? validatorSetUpdates(previousValidators, record.validators) : undefined;
  if (updates) out.push(updates);
  return out;
}
