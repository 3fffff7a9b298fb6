import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { invalidArgument, notFound } from "../../abci/queryError.js";
import { paginate, type PageRequest } from "../../abci/paginate.js";
import type { ModuleContext, NodeModule, QueryContext } from "../nodeModule.js";
import { decodeStringValue, encodeStringValue } from "../../store/wrapperValues.js";
import { big, uniqueKeys } from "../shared/genesisObjectChecks.js";
import { decodeHex } from "../shared/hexBytes.js";
import { CONTEXT_ID_HEX_LENGTH } from "../service/ids.js";
import { readRequestContext } from "../service/module.js";
import { oracleDevGenesis } from "./devGenesis.js";
import * as keys from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { oracleAnteCheck } from "./ante.js";
import { oracleServiceCallbacks } from "./callbacks.js";
import { oracleMessages } from "./messages.js";
import { oraclePriceService } from "./priceService.js";
import { valuesUnder } from "../shared/exportReads.js";

const FEED_NAME = /^[a-zA-Z][a-zA-Z0-9_-]*$/;
const AGGREGATE_FUNCS = ["max", "min", "avg"];
const STATES: Record<string, number> = { RUNNING: 0, PAUSED: 1, COMPLETED: 2 };

/**
 * The oracle module (irismod v1.3.1): feeds, each backed by a repeated
 * request context of the service module, and the values aggregated from
 * their batches. Store layout: see oracleKeys.ts.
 */
export const oracleModule: NodeModule = {
  name: "oracle",
  genesisType: "extmod.oracle.GenesisState",
  queryService: "extmod.oracle.Query",
  messages: oracleMessages,
  anteCheck: oracleAnteCheck,
  serviceCallbacks: oracleServiceCallbacks,
  moduleService: oraclePriceService,

  queries: {
    async Feed(request, ctx) {
      const name = fieldText(request.feed_name);
      const bytes = await ctx.store.get(keys.feedKey(name));
      if (!bytes) throw notFound(`feed ${name} not found`);
      return { feed: await feedContext(decodeFeed(ctx, bytes), ctx) };
    },
    async Feeds(request, ctx) {
      const stateName = fieldText(request.state);
      const pageRequest = request.pagination as PageRequest | undefined;
      if (stateName === "") {
        const page = await paginate(ctx.store, keys.FEEDS_PREFIX, pageRequest, (_key, value) => feedContext(decodeFeed(ctx, value), ctx));
        return { feeds: page.items, pagination: page.pagination };
      }
      const state = STATES[stateName.toUpperCase()];
      if (state === undefined) throw invalidArgument("invalid request state");
      const page = await paginate(ctx.store, keys.feedStatePrefix(state), pageRequest, async (_key, value) => {
        const bytes = await ctx.store.get(keys.feedKey(decodeStringValue(value)));
        return bytes ? feedContext(decodeFeed(ctx, bytes), ctx) : undefined;
      });
      return { feeds: page.items, pagination: page.pagination };
    },
    async FeedValue(request, ctx) {
      const valueType = ctx.codec.type("extmod.oracle.FeedValue");
      const values: unknown[] = [];
      for await (const [, value] of ctx.store.iterate(keys.feedValuesPrefix(fieldText(request.feed_name)))) values.push(valueType.decode(value));
      return { feed_values: values.reverse() }; // newest batch first, as the real reverse iterator lists them
    },
  },

  validateGenesis(state, ctx) {
    const names = uniqueKeys("feed");
    const contexts = uniqueKeys("request context");
    ((state.entries ?? []) as ProtoMessage[]).forEach((entry, i) => {
      const at = `entries[${i}]`;
      const feed = (entry.feed ?? {}) as ProtoMessage;
      const name = fieldText(feed.feed_name);
      if (!FEED_NAME.test(name)) throw new Error(`${at}.feed.feed_name: invalid feed name "${name}": letters, digits, _ and - only, starting with a letter`);
      names(name, `${at}.feed.feed_name`);
      if (fieldText(feed.description).length > 280) throw new Error(`${at}.feed.description: longer than 280 characters`);
      if (!AGGREGATE_FUNCS.includes(fieldText(feed.aggregate_func))) throw new Error(`${at}.feed.aggregate_func: must be one of ${AGGREGATE_FUNCS.join(", ")}`);
      const path = fieldText(feed.value_json_path);
      if (path === "" || path.length > 70) throw new Error(`${at}.feed.value_json_path: must have 1 to 70 characters`);
      const history = big(feed.latest_history);
      if (history < 1n || history > 100n) throw new Error(`${at}.feed.latest_history: latest history is invalid, should be between 1 and 100`);
      const contextId = fieldText(feed.request_context_id);
      if (contextId.length !== CONTEXT_ID_HEX_LENGTH || !decodeHex(contextId))
        throw new Error(`${at}.feed.request_context_id: a request context id is ${CONTEXT_ID_HEX_LENGTH} hex digits`);
      contexts(contextId.toUpperCase(), `${at}.feed.request_context_id`);
      decodeBech32Address(fieldText(feed.creator), ctx.chain.bech32Prefix, `${at}.feed.creator`);
      if (BigInt(((entry.values ?? []) as unknown[]).length) > history) throw new Error(`${at}.values: more values than latest_history (${history})`);
    });
  },

  /** irismod's ExportGenesis: each feed with its request context's state and its recorded values (oldest first). */
  async exportGenesis(ctx) {
    const entries: ProtoMessage[] = [];
    for (const feed of await valuesUnder(ctx.store, keys.FEEDS_PREFIX, ctx, "extmod.oracle.Feed")) {
      const contextId = decodeHex(fieldText(feed.request_context_id));
      const context = contextId && (await readRequestContext(ctx.storeOf("service"), contextId, ctx));
      const values = await valuesUnder(ctx.store, keys.feedValuesPrefix(String(feed.feed_name)), ctx, "extmod.oracle.FeedValue");
      entries.push({ feed, state: context ? (context.state ?? 0) : 0, values });
    }
    return { entries };
  },

  async initGenesis(state, ctx) {
    const feedType = ctx.codec.type("extmod.oracle.Feed");
    const valueType = ctx.codec.type("extmod.oracle.FeedValue");
    for (const entry of (state.entries ?? []) as ProtoMessage[]) {
      const feed = entry.feed as ProtoMessage;
      const name = String(feed.feed_name);
      ctx.store.set(keys.feedKey(name), feedType.encode(feed).finish());
      ctx.store.set(keys.feedByContextKey(decodeHex(String(feed.request_context_id))!), encodeStringValue(name));
      ctx.store.set(keys.feedStateKey(name, Number(entry.state ?? 0)), encodeStringValue(name));
      // Genesis values take the batch counters 1, 2, ... in their order, so the last one listed is the newest.
      ((entry.values ?? []) as ProtoMessage[]).forEach((value, i) => ctx.store.set(keys.feedValueKey(name, i + 1), valueType.encode(value).finish()));
    }
  },

  devGenesis: oracleDevGenesis,
};

function decodeFeed(ctx: ModuleContext, bytes: Uint8Array): ProtoMessage {
  return ctx.codec.type("extmod.oracle.Feed").decode(bytes);
}

/** BuildFeedContext: the feed with the settings and state of its request context (left empty if that is gone). */
async function feedContext(feed: ProtoMessage, ctx: QueryContext): Promise<ProtoMessage> {
  const contextId = decodeHex(fieldText(feed.request_context_id));
  const context = contextId && (await readRequestContext(ctx.storeOf("service"), contextId, ctx));
  if (!context) return { feed };
  return {
    feed,
    service_name: context.service_name,
    providers: context.providers,
    input: context.input,
    timeout: context.timeout,
    service_fee_cap: context.service_fee_cap,
    repeated_frequency: context.repeated_frequency,
    response_threshold: context.response_threshold,
    state: context.state,
  };
}
