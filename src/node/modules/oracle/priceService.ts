import { fieldText } from "../../../codec/fieldText.js";
import type { ExecContext, ModuleService } from "../nodeModule.js";
import { timestampDate } from "../shared/goTime.js";
import { getFeed, latestValue } from "./feeds.js";

/** How old the newest value of a feed may be to give a rate (oracle/keeper/keeper.go ModuleServiceRequest). */
const VALUE_LIFETIME_MS = 5 * 60 * 1000;

/**
 * The "oracle-price" module service the oracle module registers with the service module
 * (irismod v1.3.1 oracle/keeper/keeper.go ModuleServiceRequest): the rate of a pair is the newest
 * value of the feed named after it. The real module compares the value's time with the wall clock
 * (time.Since), which no two nodes share; this node compares it with the block time.
 */
async function request(ctx: ExecContext, input: string): Promise<{ result: string; output: string }> {
  let pair = "";
  try {
    pair = fieldText((JSON.parse(input) as { body?: { pair?: unknown } }).body?.pair);
  } catch {
    pair = "";
  }
  if (!(await getFeed(ctx, pair))) return { result: `{"code":"400","message":"feed not found"}`, output: "" };
  const value = await latestValue(ctx, pair);
  if (!value) return { result: `{"code":"401","message":"no value"}`, output: "" };
  if (ctx.time.getTime() - timestampDate(value.timestamp as { seconds?: unknown; nanos?: unknown }).getTime() > VALUE_LIFETIME_MS)
    return { result: `{"code":"402","message":"all values expired"}`, output: "" };
  return { result: `{"code":"200","message":""}`, output: `{"header":{},"body":{"rate":"${fieldText(value.data)}"}}` };
}

export const oraclePriceService: ModuleService = { serviceName: "oracle-price", providerKey: "oracle", request };
