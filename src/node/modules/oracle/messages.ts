import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { coinsFromProto, formatCoins } from "../bank/keeper.js";
import type { ExecContext, MsgRoute } from "../nodeModule.js";
import { coinsAreValid } from "../shared/coinChecks.js";
import { decodeHex, upperHex } from "../shared/hexBytes.js";
import { bech32Bytes } from "../shared/msgAddresses.js";
import { emitMsgEvent } from "../shared/msgEvents.js";
import { createRequestContext, pauseRequestContext, startRequestContext, updateRequestContext } from "../service/requestContexts.js";
import { getContext, PAUSED, RUNNING } from "../service/store.js";
import { checkServiceName } from "../service/validation.js";
import { AGGREGATES } from "./aggregate.js";
import { oracleError } from "./errors.js";
import { deleteOldestValues, enqueue, getFeed, moveState, setFeed, valueCount } from "./feeds.js";

const FEED_NAME = /^[a-zA-Z][a-zA-Z0-9/_-]*$/;
const MAX_LATEST_HISTORY = 100n;
const MAX_AGGREGATE_FUNC_LENGTH = 10;
const MAX_DESCRIPTION_LENGTH = 280;
/** MsgEditFeed's description that keeps the current one (types/msgs.go DoNotModify). */
const DO_NOT_MODIFY = "do-not-modify";

const text = (value: unknown) => fieldText(value);
const num = (value: unknown) => Number(fieldText(value, "0"));

/** The stateless checks of irismod v1.3.1 oracle/types/validation.go, with their texts. */
const checks = {
  feedName(name: unknown) {
    if (!FEED_NAME.test(text(name))) throw oracleError("invalidFeedName", text(name));
  },
  description(description: unknown) {
    if (Buffer.byteLength(text(description)) > MAX_DESCRIPTION_LENGTH) throw oracleError("invalidDescription", text(description));
  },
  latestHistory(value: unknown) {
    const history = BigInt(fieldText(value, "0"));
    if (history < 1n || history > MAX_LATEST_HISTORY)
      throw sdkError("invalidRequest", `latest history is invalid, should be between 1 and ${MAX_LATEST_HISTORY}`);
  },
  timeout(timeout: unknown, frequency: unknown) {
    if (BigInt(fieldText(frequency, "0")) < BigInt(fieldText(timeout, "0")))
      throw sdkError("invalidRequest", `timeout [${text(timeout)}] should be no more than frequency [${text(frequency)}]`);
  },
  aggregateFunc(name: unknown) {
    const func = text(name);
    if (func.length === 0 || func.length > MAX_AGGREGATE_FUNC_LENGTH)
      throw sdkError("invalidRequest", `aggregate func must between [1, ${MAX_AGGREGATE_FUNC_LENGTH}], got: ${func.length}`);
    if (!Object.hasOwn(AGGREGATES, func)) throw oracleError("notRegisterFunc", func);
  },
  serviceFeeCap(cap: unknown) {
    const coins = coinsFromProto(cap);
    if (!coinsAreValid(coins)) throw oracleError("invalidServiceFeeCap", formatCoins(coins));
  },
  creator(creator: unknown, prefix: string) {
    try {
      bech32Bytes(creator, prefix);
    } catch {
      throw sdkError("invalidAddress", "invalid creator");
    }
  },
  responseThreshold(threshold: unknown, providers: number) {
    const value = num(threshold);
    if ((providers !== 0 && value > providers) || value < 1) throw sdkError("invalidRequest", `response threshold should be between 1 and ${providers}`);
  },
};

const providersOf = (msg: ProtoMessage) => ((msg.providers ?? []) as unknown[]).map(text);
const emit = (ctx: ExecContext, msg: ProtoMessage, type: string, attributes: Record<string, string>) =>
  emitMsgEvent(ctx, "oracle", text(msg.creator), type, attributes);

/** The feed of a start/pause/edit, its creator checked, and its request context's id. */
async function ownFeed(ctx: ExecContext, msg: ProtoMessage): Promise<{ feed: ProtoMessage; contextId: Uint8Array }> {
  const name = text(msg.feed_name);
  const feed = await getFeed(ctx, name);
  if (!feed) throw oracleError("unknownFeedName", name);
  if (text(msg.creator) !== text(feed.creator)) throw oracleError("unauthorized", text(msg.creator));
  return { feed, contextId: decodeHex(text(feed.request_context_id)) ?? new Uint8Array() };
}

/** Start and pause: the feed's context must be in the other state; the service module changes it. */
function stateMsg(action: string, to: number): MsgRoute {
  return {
    action,
    signers: (msg) => [text(msg.creator)],
    validateBasic(msg, chain) {
      checks.creator(msg.creator, chain.bech32Prefix);
      checks.feedName(msg.feed_name);
    },
    async handler(msg, ctx) {
      const { contextId } = await ownFeed(ctx, msg);
      const context = await getContext(ctx, contextId);
      if (!context) throw oracleError("unknownFeedName", text(msg.feed_name));
      const wrongState = to === RUNNING ? context.state === RUNNING : context.state !== RUNNING;
      if (wrongState) throw oracleError("invalidFeedState", text(msg.feed_name));
      if (to === RUNNING) await startRequestContext(ctx, contextId, text(msg.creator));
      else await pauseRequestContext(ctx, contextId, text(msg.creator));
      moveState(ctx, text(msg.feed_name), to === RUNNING ? PAUSED : RUNNING, to);
      emit(ctx, msg, action, { feed_name: text(msg.feed_name), creator: text(msg.creator) });
      return {};
    },
  };
}

/**
 * The oracle module's Msgs (irismod v1.3.1 modules/oracle: types/msgs.go, keeper/keeper.go,
 * keeper/msg_server.go). A feed is a paused repeated request context of the service module run
 * for the oracle module; its values come from the response callback (callbacks.ts).
 */
export const oracleMessages: Record<string, MsgRoute> = {
  "extmod.oracle.MsgCreateFeed": {
    action: "create_feed",
    signers: (msg) => [text(msg.creator)],
    validateBasic(msg, chain) {
      checks.feedName(msg.feed_name);
      checks.description(msg.description);
      checkServiceName(msg.service_name);
      checks.latestHistory(msg.latest_history);
      checks.timeout(msg.timeout, msg.repeated_frequency);
      if (providersOf(msg).length === 0) throw sdkError("invalidAddress", "providers missing");
      checks.aggregateFunc(msg.aggregate_func);
      checks.serviceFeeCap(msg.service_fee_cap);
      checks.creator(msg.creator, chain.bech32Prefix);
      checks.responseThreshold(msg.response_threshold, providersOf(msg).length);
    },
    async handler(msg, ctx) {
      const name = text(msg.feed_name);
      if (await getFeed(ctx, name)) throw oracleError("existedFeedName", name);
      const contextId = await createRequestContext(ctx, {
        serviceName: text(msg.service_name),
        providers: providersOf(msg),
        consumer: text(msg.creator),
        input: text(msg.input),
        serviceFeeCap: coinsFromProto(msg.service_fee_cap),
        timeout: num(msg.timeout),
        repeated: true,
        repeatedFrequency: num(msg.repeated_frequency),
        repeatedTotal: -1,
        state: PAUSED,
        responseThreshold: num(msg.response_threshold),
        moduleName: "oracle",
      });
      setFeed(ctx, {
        feed_name: name,
        aggregate_func: text(msg.aggregate_func),
        value_json_path: text(msg.value_json_path),
        latest_history: fieldText(msg.latest_history, "0"),
        request_context_id: upperHex(contextId),
        description: text(msg.description),
        creator: text(msg.creator),
      });
      enqueue(ctx, name, PAUSED);
      emit(ctx, msg, "create_feed", { feed_name: name, service_name: text(msg.service_name), creator: text(msg.creator) });
      return {};
    },
  },

  "extmod.oracle.MsgStartFeed": stateMsg("start_feed", RUNNING),
  "extmod.oracle.MsgPauseFeed": stateMsg("pause_feed", PAUSED),

  "extmod.oracle.MsgEditFeed": {
    action: "edit_feed",
    signers: (msg) => [text(msg.creator)],
    validateBasic(msg, chain) {
      checks.feedName(msg.feed_name);
      checks.description(msg.description);
      if (num(msg.latest_history) !== 0) checks.latestHistory(msg.latest_history);
      checks.serviceFeeCap(msg.service_fee_cap);
      if (num(msg.timeout) !== 0 && num(msg.repeated_frequency) !== 0) checks.timeout(msg.timeout, msg.repeated_frequency);
      if (num(msg.response_threshold) !== 0) checks.responseThreshold(msg.response_threshold, providersOf(msg).length);
      checks.creator(msg.creator, chain.bech32Prefix);
    },
    async handler(msg, ctx) {
      const { feed, contextId } = await ownFeed(ctx, msg);
      await updateRequestContext(
        ctx,
        contextId,
        {
          providers: providersOf(msg),
          responseThreshold: num(msg.response_threshold),
          serviceFeeCap: coinsFromProto(msg.service_fee_cap),
          timeout: num(msg.timeout),
          repeatedFrequency: num(msg.repeated_frequency),
          repeatedTotal: -1,
        },
        text(msg.creator),
      );
      const history = num(msg.latest_history);
      if (history > 0) {
        const count = await valueCount(ctx, text(feed.feed_name));
        if (history < count) await deleteOldestValues(ctx, text(feed.feed_name), count - history);
        feed.latest_history = String(history);
      }
      if (text(msg.description) !== DO_NOT_MODIFY) feed.description = text(msg.description);
      setFeed(ctx, feed);
      emit(ctx, msg, "edit_feed", { feed_name: text(msg.feed_name), creator: text(msg.creator) });
      return {};
    },
  },
};
