import type { ExecContext, ServiceCallbacks } from "../nodeModule.js";
import { rfc3339Nano } from "../shared/goTime.js";
import { upperHex } from "../shared/hexBytes.js";
import { fieldText } from "../../../codec/fieldText.js";
import { getContext, PAUSED, RUNNING } from "../service/store.js";
import { AGGREGATES, formatFeedValue, valueAt } from "./aggregate.js";
import { feedOfContext, moveState, setFeedValue } from "./feeds.js";
import { processLogger } from "../../../telemetry/processLogger.js";

/**
 * HandlerResponse (irismod v1.3.1 oracle/keeper/keeper.go): a completed batch of a feed's context
 * gives the feed a value, the aggregate of the value_json_path of each output's body, stored under
 * the batch counter with the block time. A batch with too few outputs gives none (the real module
 * logs it).
 */
async function onResponse(ctx: ExecContext, contextId: Uint8Array, outputs: string[], error?: string): Promise<void> {
  if (outputs.length === 0 || error !== undefined) {
    processLogger().error(`[oracle] feed of request context ${upperHex(contextId)} failed: ${error ?? "no outputs"}`);
    return;
  }
  const feed = await feedOfContext(ctx, contextId);
  const context = await getContext(ctx, contextId);
  const aggregate = feed && AGGREGATES[fieldText(feed.aggregate_func)];
  if (!feed || !context || !aggregate) return;
  const name = fieldText(feed.feed_name);
  const data = formatFeedValue(aggregate(outputs.map((output) => valueAt(output, fieldText(feed.value_json_path)))));
  await setFeedValue(ctx, name, context.batch_counter, Number(fieldText(feed.latest_history, "0")), { data, timestamp: ctx.time });
  ctx.emit({
    type: "set_feed_value",
    attributes: [
      { key: "feed_name", value: name },
      { key: "feed_value", value: JSON.stringify({ data, timestamp: rfc3339Nano(ctx.time) }) },
    ],
  });
}

/** HandlerStateChanged: the service module paused the feed's context (its creator could not pay). */
async function onStateChanged(ctx: ExecContext, contextId: Uint8Array): Promise<void> {
  const context = await getContext(ctx, contextId);
  const feed = await feedOfContext(ctx, contextId);
  if (!context || !feed) return;
  if (context.state === PAUSED) moveState(ctx, fieldText(feed.feed_name), RUNNING, PAUSED);
  else if (context.state === RUNNING) moveState(ctx, fieldText(feed.feed_name), PAUSED, RUNNING);
}

export const oracleServiceCallbacks: ServiceCallbacks = { response: onResponse, state: onStateChanged };
