import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { decodeBech32Address } from "../../../codec/bech32.js";
import { concatBytes } from "../../store/keyEncoding.js";
import type { ExecContext, NodeModule } from "../nodeModule.js";
import { assertCoins, big, uniqueKeys } from "../shared/genesisObjectChecks.js";
import { decodeHex } from "../shared/hexBytes.js";
import { CONTEXT_ID_HEX_LENGTH } from "../service/ids.js";
import { randomDevGenesis } from "./devGenesis.js";
import { queueHeightPrefix, randomKey, randomRequestId } from "./keys.js";
import { fieldText } from "../../../codec/fieldText.js";
import { randomMessages } from "./messages.js";
import { generateRandoms } from "./blocks.js";
import { randomQueries } from "./queries.js";
import { randomServiceCallbacks } from "./oracleService.js";
import { QUEUE_PREFIX, RANDOM_PREFIX } from "./keys.js";
import { decodedUnder } from "../shared/exportReads.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const HEX_HASH = /^[0-9a-fA-F]{64}$/;

/**
 * The random module (irismod v1.3.1): random numbers produced for requests,
 * and the queue of pending requests. Store layout: see randomKeys.ts.
 */
export const randomModule: NodeModule = {
  name: "random",
  genesisType: "extmod.random.GenesisState",
  queryService: "extmod.random.Query",
  messages: randomMessages,
  beginBlock: generateRandoms,
  serviceCallbacks: randomServiceCallbacks,

  queries: randomQueries,

  validateGenesis(state, ctx) {
    const address = (value: unknown, field: string) => decodeBech32Address(fieldText(value), ctx.chain.bech32Prefix, field);
    const pending = uniqueKeys("request");
    for (const [height, group] of Object.entries((state.pending_random_requests ?? {}) as Record<string, ProtoMessage>)) {
      const at = `pending_random_requests[${height}]`;
      if (!/^\d+$/.test(height) || BigInt(height) === 0n)
        throw new Error(`${at}: the key is the height at which the random number is generated, a positive integer`);
      ((group.requests ?? []) as ProtoMessage[]).forEach((request, i) => {
        const field = `${at}.requests[${i}]`;
        address(request.consumer, `${field}.consumer`);
        if (!HEX_HASH.test(fieldText(request.tx_hash))) throw new Error(`${field}.tx_hash: a transaction hash is 64 hex digits`);
        if (big(request.height) >= BigInt(height)) throw new Error(`${field}.height: the request height must be before the generation height ${height}`);
        if (request.oracle) {
          assertCoins(request.service_fee_cap, `${field}.service_fee_cap`, { nonEmpty: true });
          const contextId = fieldText(request.service_context_id);
          if (contextId.length !== CONTEXT_ID_HEX_LENGTH || !decodeHex(contextId))
            throw new Error(`${field}.service_context_id: a request context id is ${CONTEXT_ID_HEX_LENGTH} hex digits`);
        }
        pending(Buffer.from(randomRequestId(big(request.height), String(request.consumer))).toString("hex"), field);
      });
    }
    const produced = uniqueKeys("random");
    for (const [id, random] of Object.entries((state.randoms ?? {}) as Record<string, ProtoMessage>)) {
      const at = `randoms[${id}]`;
      if (!HEX_HASH.test(id)) throw new Error(`${at}: a request id is 64 hex digits`);
      produced(id.toLowerCase(), at);
      if (!HEX_HASH.test(fieldText(random.request_tx_hash))) throw new Error(`${at}.request_tx_hash: a transaction hash is 64 hex digits`);
      if (big(random.height) <= 0n) throw new Error(`${at}.height: must be positive`);
      if (!/^\d+(\.\d+)?$/.test(fieldText(random.value))) throw new Error(`${at}.value: a random number is decimal text`);
    }
  },

  /**
   * irismod's ExportGenesis: the pending requests by generation height, made relative to the
   * exported height by a plain export (this node's new chain starts again at 1; --for-zero-height's
   * step has already moved them), plus this node's extension: the random numbers already produced, by request id.
   */
  async exportGenesis(ctx) {
    const pending: Record<string, { requests: ProtoMessage[] }> = {};
    const shift = ctx.forZeroHeight ? 0n : BigInt(ctx.height) - 1n;
    for (const [key, request] of await decodedUnder(ctx.store, QUEUE_PREFIX, ctx, "extmod.random.Request")) {
      const height = new DataView(key.buffer, key.byteOffset, 8).getBigUint64(0) - shift;
      (pending[height.toString()] ??= { requests: [] }).requests.push(request);
    }
    const randoms: Record<string, ProtoMessage> = {};
    for (const [id, random] of await decodedUnder(ctx.store, RANDOM_PREFIX, ctx, "extmod.random.Random")) randoms[bytesToHex(id)] = random;
    return { pending_random_requests: pending, randoms };
  },

  async initGenesis(state, ctx: ExecContext) {
    const requestType = ctx.codec.type("extmod.random.Request");
    for (const [height, group] of Object.entries((state.pending_random_requests ?? {}) as Record<string, ProtoMessage>)) {
      for (const request of (group.requests ?? []) as ProtoMessage[]) {
        const id = randomRequestId(big(request.height), String(request.consumer));
        ctx.store.set(concatBytes(queueHeightPrefix(BigInt(height)), id), requestType.encode(request).finish());
      }
    }
    const randomType = ctx.codec.type("extmod.random.Random");
    for (const [id, random] of Object.entries((state.randoms ?? {}) as Record<string, ProtoMessage>)) {
      ctx.store.set(randomKey(decodeHex(id)!), randomType.encode(random).finish());
    }
  },

  devGenesis: randomDevGenesis,
};
