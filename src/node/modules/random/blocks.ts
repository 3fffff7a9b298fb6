import { fieldText } from "../../../codec/fieldText.js";
import type { ProtoMessage } from "../../../codec/json/renderProto3.js";
import { concatBytes } from "../../store/keyEncoding.js";
import type { ExecContext } from "../nodeModule.js";
import { accountBytes } from "../shared/msgAddresses.js";
import { queueHeightPrefix, randomKey } from "./keys.js";
import { makeRandom } from "./rng.js";
import { decodeHex } from "../shared/hexBytes.js";
import { startRequestContext } from "../service/requestContexts.js";
import { setOracleRequest } from "./oracleService.js";
import { processLogger } from "../../../telemetry/processLogger.js";

/**
 * BeginBlock (irismod v1.3.1 random/abci.go) at height H: the requests queued for H − 1 get their
 * number from block H's header (the last block's hash, the block time in Unix seconds) and the
 * consumer, stored as Random{request_tx_hash, height: H − 1, value}. An oracle request starts its
 * service request context instead (the service EndBlock of H sends the request); the response's seed
 * makes the number (oracleService.ts). A start that fails leaves a log line, as the real one does.
 */
export async function generateRandoms(ctx: ExecContext): Promise<void> {
  if (ctx.height <= 1) return;
  const store = ctx.storeOf("random");
  const prefix = queueHeightPrefix(BigInt(ctx.height - 1));
  const due: Array<[Uint8Array, Uint8Array]> = [];
  for await (const [id, value] of store.iterate(prefix)) due.push([id.slice(), value.slice()]);
  const requestType = ctx.codec.type("extmod.random.Request");
  const lastBlockHash = Uint8Array.from(Buffer.from(ctx.block?.lastBlockId.hash ?? "", "hex"));
  const seconds = BigInt(Math.floor(ctx.time.getTime() / 1000));
  for (const [id, bytes] of due) {
    store.delete(concatBytes(prefix, id));
    const request = requestType.decode(bytes) as unknown as ProtoMessage;
    if (request.oracle === true) {
      const contextId = decodeHex(fieldText(request.service_context_id)) ?? new Uint8Array();
      try {
        await startRequestContext(ctx, contextId, fieldText(request.consumer));
        setOracleRequest(ctx, contextId, request);
        ctx.emit({
          type: "request_service",
          attributes: [
            { key: "request_id", value: Buffer.from(id).toString("hex") },
            { key: "request_context_id", value: fieldText(request.service_context_id) },
          ],
        });
      } catch (err) {
        processLogger().error(`[random] start service error : ${(err as Error).message}`);
      }
      continue;
    }
    const random = makeRandom(lastBlockHash, seconds, accountBytes(request.consumer, ctx));
    const stored = { request_tx_hash: fieldText(request.tx_hash), height: String(ctx.height - 1), value: random.value };
    store.set(randomKey(id), ctx.codec.type("extmod.random.Random").encode(stored).finish());
    ctx.emit({
      type: "generate_random",
      attributes: [
        { key: "request_id", value: Buffer.from(id).toString("hex") },
        { key: "random", value: random.fraction },
      ],
    });
  }
}
