import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { decodeStringValue, encodeStringValue } from "../../store/wrapperValues.js";
import type { ExecContext } from "../nodeModule.js";
import { decodeHex } from "../shared/hexBytes.js";
import * as keys from "./keys.js";

/** Reading and writing feeds and their values (irismod v1.3.1 oracle/keeper/feed.go). */

const store = (ctx: ExecContext) => ctx.storeOf("oracle");

export async function getFeed(ctx: ExecContext, name: string): Promise<ProtoMessage | undefined> {
  const bytes = await store(ctx).get(keys.feedKey(name));
  return bytes && ctx.codec.type("extmod.oracle.Feed").decode(bytes);
}

/** GetFeedByReqCtxID. */
export async function feedOfContext(ctx: ExecContext, contextId: Uint8Array): Promise<ProtoMessage | undefined> {
  const bytes = await store(ctx).get(keys.feedByContextKey(contextId));
  return bytes && getFeed(ctx, decodeStringValue(bytes));
}

/** SetFeed: the feed and its index by request context id. */
export function setFeed(ctx: ExecContext, feed: ProtoMessage): void {
  store(ctx).set(keys.feedKey(fieldText(feed.feed_name)), ctx.codec.type("extmod.oracle.Feed").encode(feed).finish());
  store(ctx).set(keys.feedByContextKey(decodeHex(fieldText(feed.request_context_id)) ?? new Uint8Array()), encodeStringValue(fieldText(feed.feed_name)));
}

export function enqueue(ctx: ExecContext, name: string, state: number): void {
  store(ctx).set(keys.feedStateKey(name, state), encodeStringValue(name));
}

/** dequeueAndEnqueue: the feed moves from one state index to the other. */
export function moveState(ctx: ExecContext, name: string, from: number, to: number): void {
  store(ctx).delete(keys.feedStateKey(name, from));
  enqueue(ctx, name, to);
}

async function valueKeys(ctx: ExecContext, name: string): Promise<Uint8Array[]> {
  const prefix = keys.feedValuesPrefix(name);
  const found: Uint8Array[] = [];
  for await (const [key] of store(ctx).iterate(prefix)) found.push(concatBytes(prefix, key));
  return found;
}

/** deleteOldestFeedValue: the `count` oldest values (lowest batch counters) go. */
export async function deleteOldestValues(ctx: ExecContext, name: string, count: number): Promise<void> {
  for (const key of (await valueKeys(ctx, name)).slice(0, Math.max(0, count))) store(ctx).delete(key);
}

export async function valueCount(ctx: ExecContext, name: string): Promise<number> {
  return (await valueKeys(ctx, name)).length;
}

/** SetFeedValue: keeps at most latest_history values, the new one under its batch counter. */
export async function setFeedValue(ctx: ExecContext, name: string, batchCounter: number, latestHistory: number, value: { data: string; timestamp: Date }) {
  await deleteOldestValues(ctx, name, (await valueCount(ctx, name)) - latestHistory + 1);
  const ms = value.timestamp.getTime();
  const encoded = { data: value.data, timestamp: { seconds: String(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 } };
  store(ctx).set(keys.feedValueKey(name, batchCounter), ctx.codec.type("extmod.oracle.FeedValue").encode(encoded).finish());
}

/** The newest value of a feed (the first of GetFeedValues' reverse iteration). */
export async function latestValue(ctx: ExecContext, name: string): Promise<ProtoMessage | undefined> {
  const keys = await valueKeys(ctx, name);
  const newest = keys[keys.length - 1];
  const bytes = newest && (await store(ctx).get(newest));
  return bytes ? ctx.codec.type("extmod.oracle.FeedValue").decode(bytes) : undefined;
}
