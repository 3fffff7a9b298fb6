import type { PublishedEvent } from "./blockEvents.js";

/** A validator as the `validators` RPC and the ValidatorSetUpdates event list it. */
export interface ValidatorJson {
  address: string;
  pub_key: { type: string; value: string };
  voting_power: string;
  proposer_priority: string;
}

/** The attributes of every ValidatorSetUpdates event: the event bus adds only the reserved key. */
export const VALIDATOR_SET_UPDATES_ATTRIBUTES: ReadonlyMap<string, string[]> = new Map([["tm.event", ["ValidatorSetUpdates"]]]);

/**
 * The ValidatorSetUpdates event of a block whose validator set is `after`,
 * the block before having had `before`: the validators whose power changed
 * (power 0: left the set), or none when nothing changed. Shared by the node's
 * publisher and the REST event stream's replay of past blocks.
 */
export function validatorSetUpdates(before: readonly ValidatorJson[], after: readonly ValidatorJson[]): PublishedEvent | undefined {
  const powerBefore = new Map(before.map((v) => [v.address, v.voting_power]));
  const changed = after.filter((v) => powerBefore.get(v.address) !== v.voting_power);
  const stillThere = new Set(after.map((v) => v.address));
  const left = before.filter((v) => !stillThere.has(v.address)).map((v) => ({ ...v, voting_power: "0", proposer_priority: "0" }));
  const updates = [...changed, ...left];
  if (updates.length === 0) return undefined;
  return { data: { type: "tendermint/event/ValidatorSetUpdates", value: { validator_updates: updates } }, events: new Map(VALIDATOR_SET_UPDATES_ATTRIBUTES) };
}
