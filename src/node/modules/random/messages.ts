import { sha256 } from "@noble/hashes/sha2.js";
import { fieldText } from "../../../codec/fieldText.js";
import { concatBytes } from "../../store/keyEncoding.js";
import { coinsFromProto, coinsToProto, formatCoins } from "../bank/keeper.js";
import { upperHex } from "../shared/hexBytes.js";
import { requestRandomService } from "./oracleService.js";
import type { MsgRoute } from "../nodeModule.js";
import { coinsAreValid } from "../shared/coinChecks.js";
import { checkAccountField } from "../shared/msgAddresses.js";
import { randomError } from "./errors.js";
import { queueHeightPrefix, randomRequestId } from "./keys.js";
import { emitMsgEvent } from "../shared/msgEvents.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/**
 * MsgRequestRandom (irismod v1.3.1 modules/random): a request queued for `height + block_interval`;
 * the BeginBlock of the block after generates the number (blocks.ts). With the oracle option the
 * request also creates a paused request context of the random service (oracleService.ts), which
 * that BeginBlock starts; the provider's seed then makes the number.
 */
export const randomMessages: Record<string, MsgRoute> = {
  "extmod.random.MsgRequestRandom": {
    action: "request_random",
    signers: (msg) => [fieldText(msg.consumer)],
    validateBasic(msg, chain) {
      checkAccountField(msg.consumer, chain.bech32Prefix, "invalid consumer address");
      const cap = coinsFromProto(msg.service_fee_cap);
      if (!coinsAreValid(cap)) throw randomError("invalidServiceFeeCap", formatCoins(cap));
    },
    async handler(msg, ctx) {
      const consumer = fieldText(msg.consumer);
      const oracle = msg.oracle === true;
      const height = BigInt(ctx.height);
      const generateHeight = height + BigInt(fieldText(msg.block_interval, "0"));
      const id = randomRequestId(height, consumer);
      const cap = oracle ? coinsFromProto(msg.service_fee_cap) : [];
      const contextId = oracle ? await requestRandomService(ctx, consumer, cap) : undefined;
      const request = {
        height: height.toString(),
        consumer,
        tx_hash: hex(sha256(ctx.txBytes ?? new Uint8Array())),
        oracle,
        service_fee_cap: coinsToProto(cap),
        service_context_id: contextId ? upperHex(contextId) : "",
      };
      ctx.storeOf("random").set(concatBytes(queueHeightPrefix(generateHeight), id), ctx.codec.type("extmod.random.Request").encode(request).finish());
      emitMsgEvent(ctx, "random", consumer, "request_random", {
        request_id: hex(id),
        consumer,
        generate_height: generateHeight.toString(),
        oracle: String(oracle),
      });
      return {};
    },
  },
};
