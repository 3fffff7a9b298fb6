import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { sdkError } from "../../abci/txError.js";
import { getAllBalances, type Coin } from "../bank/keeper.js";
import type { ExecContext, ServiceCallbacks } from "../nodeModule.js";
import { isAllGTE } from "../shared/coinChecks.js";
import { upperHex } from "../shared/hexBytes.js";
import { accountBytes } from "../shared/msgAddresses.js";
import { documentError } from "../service/documentSchema.js";
import { maxRequestTimeout } from "../service/params.js";
import { createRequestContext } from "../service/requestContexts.js";
import { bindingsOf, getContext, PAUSED } from "../service/store.js";
import { randomError } from "./errors.js";
import { oracleRequestKey, randomKey, randomRequestId } from "./keys.js";
import { makeRandom } from "./rng.js";
import { processLogger } from "../../../telemetry/processLogger.js";

/** The system service the oracle option calls (irismod v1.3.1 random/types/service.go). */
const RANDOM_SERVICE = "random";
/** The output body schema of the random service: one 64-hex-digit seed. */
const SEED_BODY_SCHEMA = {
  type: "object",
  properties: { seed: { type: "string", pattern: "^[0-9a-fA-F]{64}$" } },
  additionalProperties: false,
  required: ["seed"],
};

/**
 * RequestService (random/keeper/service.go): a paused one-off request context of the random service
 * for the random module, with one provider among the service's bindings, started when the request
 * is due (blocks.ts). The real keeper draws the provider with a wall-clock seed (math/rand), which no
 * two nodes share; this node takes the first binding.
 */
export async function requestRandomService(ctx: ExecContext, consumer: string, serviceFeeCap: Coin[]): Promise<Uint8Array> {
  const bindings = await bindingsOf(ctx, RANDOM_SERVICE);
  if (bindings.length < 1) throw randomError("noBindings");
  if (!isAllGTE(await getAllBalances(ctx.storeOf("bank"), accountBytes(consumer, ctx)), serviceFeeCap)) throw sdkError("insufficientFee");
  const timeout = await maxRequestTimeout(ctx);
  return createRequestContext(ctx, {
    serviceName: RANDOM_SERVICE,
    providers: [bindings[0]!.provider],
    consumer,
    input: JSON.stringify({ header: {} }),
    serviceFeeCap,
    timeout,
    repeated: false,
    repeatedFrequency: 0,
    repeatedTotal: 0,
    state: PAUSED,
    responseThreshold: 1,
    moduleName: "random",
  });
}

const requestType = (ctx: ExecContext) => ctx.codec.type("extmod.random.Request");

export function setOracleRequest(ctx: ExecContext, contextId: Uint8Array, request: ProtoMessage): void {
  ctx.storeOf("random").set(oracleRequestKey(contextId), requestType(ctx).encode(request).finish());
}

/**
 * HandlerResponse (random/keeper/service.go): the seed of the response's body makes the random
 * number, with the header of the block the response is in (the previous block's hash, its time),
 * stored at that block's height − 1.
 */
async function onResponse(ctx: ExecContext, contextId: Uint8Array, outputs: string[], error?: string): Promise<void> {
  const store = ctx.storeOf("random");
  const key = oracleRequestKey(contextId);
  if (outputs.length === 0 || error !== undefined) {
    processLogger().error(`[random] respond service failed for ${upperHex(contextId)}: ${error ?? "no outputs"}`);
    store.delete(key);
    return;
  }
  const bytes = await store.get(key);
  if (!(await getContext(ctx, contextId)) || !bytes) {
    store.delete(key);
    return;
  }
  const request = requestType(ctx).decode(bytes);
  const body = JSON.stringify((JSON.parse(outputs[0]!) as { body?: unknown }).body ?? null);
  const invalid = documentError(SEED_BODY_SCHEMA, body);
  if (invalid) {
    // the real handler logs and returns here, leaving the request
    processLogger().error(`[random] invalid output body ${body}: ${invalid}`);
    return;
  }
  const seed = Uint8Array.from(Buffer.from((JSON.parse(body) as { seed: string }).seed, "hex"));
  const id = randomRequestId(BigInt(fieldText(request.height, "0")), fieldText(request.consumer));
  const lastBlockHash = Uint8Array.from(Buffer.from(ctx.block?.lastBlockId.hash ?? "", "hex"));
  const random = makeRandom(lastBlockHash, BigInt(Math.floor(ctx.time.getTime() / 1000)), accountBytes(request.consumer, ctx), seed);
  const stored = { request_tx_hash: fieldText(request.tx_hash), height: String(ctx.height - 1), value: random.value };
  store.set(randomKey(id), ctx.codec.type("extmod.random.Random").encode(stored).finish());
  store.delete(key);
  ctx.emit({
    type: "generate_random",
    attributes: [
      { key: "request_id", value: Buffer.from(id).toString("hex") },
      { key: "random", value: random.fraction },
    ],
  });
}

/** HandlerStateChanged: the context was paused (its consumer could not pay): the request is dropped. */
function onStateChanged(ctx: ExecContext, contextId: Uint8Array): Promise<void> {
  processLogger().error(`[random] oracle request context ${upperHex(contextId)} paused`);
  ctx.storeOf("random").delete(oracleRequestKey(contextId));
  return Promise.resolve();
}

export const randomServiceCallbacks: ServiceCallbacks = { response: onResponse, state: onStateChanged };
