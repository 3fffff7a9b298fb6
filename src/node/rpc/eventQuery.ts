import { matches, parseQuery, type Condition } from "../chain/txQuery.js";

/** The events of one occurrence by composite key ("tm.event", "tx.hash", "message.sender", ...). */
export type EventAttributes = Map<string, string[]>;

/** A subscription query of the engine's pubsub: every condition must hold for some value of its key. */
export class EventQuery {
  private readonly conditions: Condition[];

  constructor(readonly text: string) {
    this.conditions = parseQuery(text);
  }

  matches(events: EventAttributes): boolean {
    return this.conditions.every((condition) => (events.get(condition.tag) ?? []).some((value) => matches(condition, value)));
  }
}
