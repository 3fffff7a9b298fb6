import type { CommittedHeight } from "../chain/blockStore.js";
import type { EmbeddedNode } from "../embeddedNode.js";
import { publishedEvents, type PublishedEvent } from "./publishedEvents.js";

/**
 * Calls `deliver` with what the node publishes at each commit (publishedEvents.ts),
 * comparing each block's validator set with the one before it. Returns the function that stops it.
 */
export function followPublishedEvents(node: EmbeddedNode, deliver: (events: readonly PublishedEvent[]) => void): () => void {
  // The validator set a block is compared with, for ValidatorSetUpdates: the last committed one at first.
  let previous: Pick<CommittedHeight, "validators"> | undefined;
  void node
    .committed(node.height)
    .then((record) => (previous ??= record))
    .catch(() => undefined); // a node closing meanwhile: the first block is then compared with nothing
  const onBlock = (record: CommittedHeight) => {
    const events = publishedEvents(record, previous?.validators);
    previous = record;
    deliver(events);
  };
  // after a revert the next block follows the reverted-to height's validator set
  const onReverted = (height: number) =>
    void node
      .committed(height)
      .then((record) => (previous = record))
      .catch(() => undefined);
  node.on("block", onBlock);
  node.on("reverted", onReverted);
  return () => {
    node.off("block", onBlock);
    node.off("reverted", onReverted);
  };
}
