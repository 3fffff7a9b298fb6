import Long from "long";
import { sha256 } from "@noble/hashes/sha2.js";
import {
  NodeRpcError,
  type AbciQueryResponse,
  type BroadcastMode,
  type BroadcastResult,
  type TxResult,
  type TxSearchResult,
} from "../../client/chainClient.js";
import { abciQueryError } from "../../http/abciErrors.js";
import type { ProtoMessage } from "../../codec/json/renderProto3.js";
import { GatewayError, GrpcCode } from "../../http/grpcStatus.js";
import type { ServiceContext, ServiceMethod } from "../serviceMethod.js";
import { committedTxResponse, parseLogs, resultFields } from "./txResponse.js";
import { rpcPage } from "../rpcPaging.js";
import { fieldText } from "../../codec/fieldText.js";
import type { RpcBlockResult, RpcTxResult } from "../../client/rpcJsonTypes.js";
import { profileTypeUrl } from "../../codec/typeRegistry.js";
import { names } from "../../names/activeNames.js";
import { queryProblem } from "../../events/eventQuery.js";

const MODES: Record<number, BroadcastMode> = { 1: "commit", 2: "sync", 3: "async" };

/** Mempool rejections the SDK turns into a TxResponse code (CheckTendermintError). */
const MEMPOOL_CODES: Array<[RegExp, number]> = [
  [/tx already exists in cache/i, 19],
  [/mempool is full/i, 20],
  [/tx too large/i, 21],
];

const SIMULATE = "/core.tx.v1beta1.Service/Simulate";

/** core.tx.v1beta1.Service on top of the node's RPC; Simulate runs in the node as an ABCI query. */
export const txService: Record<string, ServiceMethod> = {
  [SIMULATE]: async (request, context) => {
    const data = context.codec.type("core.tx.v1beta1.SimulateRequest").encode(request).finish();
    const answer = await context.client.abciQuery(profileTypeUrl(SIMULATE), data, context.height);
    if (answer.code !== 0) throw simulationError(answer);
    try {
      return { response: context.codec.type("core.tx.v1beta1.SimulateResponse").decode(answer.value) as unknown as ProtoMessage, height: answer.height };
    } catch (err) {
      throw new GatewayError(
        GrpcCode.Internal,
        names().text(`the node's answer to ${SIMULATE} is not a core.tx.v1beta1.SimulateResponse: ${(err as Error).message}`),
      );
    }
  },

  "/core.tx.v1beta1.Service/BroadcastTx": async (request, context) => {
    const bytes = request.tx_bytes as Uint8Array | undefined;
    if (!bytes?.length) throw new GatewayError(GrpcCode.InvalidArgument, "invalid empty tx");
    const mode = MODES[Number(request.mode ?? 0)];
    if (!mode)
      throw new GatewayError(
        GrpcCode.InvalidArgument,
        `unsupported broadcast mode ${fieldText(request.mode, "BROADCAST_MODE_UNSPECIFIED")}; supported modes: BROADCAST_MODE_SYNC, BROADCAST_MODE_ASYNC, BROADCAST_MODE_BLOCK`,
      );
    return { response: { tx_response: await broadcast(context, bytes, mode) } };
  },

  "/core.tx.v1beta1.Service/GetTx": async (request, context) => {
    const hash = fieldText(request.hash);
    if (!/^([0-9a-fA-F]{2})+$/.test(hash)) throw new GatewayError(GrpcCode.InvalidArgument, `invalid tx hash "${hash}": expected hex`);
    let tx: TxResult;
    try {
      tx = await context.client.tx(Buffer.from(hash, "hex"));
    } catch (err) {
      if (err instanceof NodeRpcError && /not found/.test(err.message)) throw new GatewayError(GrpcCode.NotFound, `tx (${hash.toUpperCase()}) not found`);
      throw err;
    }
    const { tx: decoded, txResponse } = committedTxResponse(context.codec, tx, await blockTime(context, Number(tx.height)));
    return { response: { tx: decoded, tx_response: txResponse } };
  },

  "/core.tx.v1beta1.Service/GetTxsEvent": async (request, context) => {
    const events = (request.events ?? []) as string[];
    if (events.length === 0) throw new GatewayError(GrpcCode.InvalidArgument, "must declare at least one event to search");
    const query = events.map(condition).join(" AND ");
    const problem = queryProblem(query);
    if (problem) throw new GatewayError(GrpcCode.InvalidArgument, problem);
    const { page, perPage } = rpcPage(request.pagination, "search results");
    let found: TxSearchResult;
    try {
      found = await context.client.txSearch(query, page, perPage, orderOf(request.order_by));
    } catch (err) {
      if (err instanceof NodeRpcError) throw new GatewayError(GrpcCode.InvalidArgument, err.message);
      throw err;
    }
    const times = new Map<number, string>();
    const txs: ProtoMessage[] = [];
    const responses: ProtoMessage[] = [];
    for (const tx of found.txs) {
      const height = Number(tx.height);
      if (!times.has(height)) times.set(height, await blockTime(context, height));
      const built = committedTxResponse(context.codec, tx, times.get(height)!);
      txs.push(built.tx);
      responses.push(built.txResponse);
    }
    return { response: { txs, tx_responses: responses, pagination: { total: Long.fromString(String(found.total_count), true) } } };
  },
};

/**
 * A transaction the decoder, the ante handler or a message refuses cannot
 * run: the client's error, 400 with the ABCI codespace, code and log (the
 * real v0.41 answered 500 / Unknown). A fault of the node itself (codespace
 * "undefined": an internal error or a panic) stays a server error.
 */
function simulationError(answer: AbciQueryResponse): GatewayError {
  if (answer.codespace === "undefined" || answer.codespace === "") return abciQueryError(answer, SIMULATE);
  const log = answer.log.replace(/^rpc error: code = \w+ desc = /, "");
  return new GatewayError(GrpcCode.InvalidArgument, `${log} (codespace ${answer.codespace}, code ${answer.code})`);
}

/** GetTxsEventRequest.order_by (SDK v0.43): ORDER_BY_DESC is newest first; unspecified and ASC oldest first, as v0.41. */
function orderOf(value: unknown): "asc" | "desc" {
  return value === 2 || value === "ORDER_BY_DESC" ? "desc" : "asc";
}

/** "type.attr=value": the value is quoted for the engine unless it already is, or is a number for tx.height. */
function condition(event: string): string {
  const at = event.indexOf("=");
  if (at <= 0 || event.indexOf("=", at + 1) !== -1 || !/^[^.=\s]+\.[^=\s]+$/.test(event.slice(0, at))) {
    throw new GatewayError(GrpcCode.InvalidArgument, `invalid event; event ${event} should be of the format: {eventType}.{eventAttribute}={value}`);
  }
  const tag = event.slice(0, at);
  const value = event.slice(at + 1);
  if (/^'.*'$/.test(value) || (tag === "tx.height" && /^\d+$/.test(value))) return `${tag}=${value}`;
  return `${tag}='${value.replace(/^"(.*)"$/, "$1")}'`;
}

async function blockTime(context: ServiceContext, height: number): Promise<string> {
  const block = (await context.client.block(height)) as RpcBlockResult;
  return block.block?.header?.time ?? "";
}

async function broadcast(context: ServiceContext, bytes: Uint8Array, mode: BroadcastMode): Promise<ProtoMessage> {
  const txhash = Buffer.from(sha256(bytes)).toString("hex").toUpperCase();
  let result: BroadcastResult;
  try {
    result = await context.client.broadcastTx(bytes, mode);
  } catch (err) {
    const known = err instanceof NodeRpcError ? MEMPOOL_CODES.find(([pattern]) => pattern.test(err.message)) : undefined;
    if (known) return txResponse({ txhash, code: known[1], codespace: "sdk" });
    // the node cannot write blocks (a full disk): nothing it accepted now could be committed
    if (err instanceof NodeRpcError && err.data?.startsWith("cannot write blocks")) throw new GatewayError(GrpcCode.Unavailable, err.data);
    throw err;
  }
  if (mode === "async") return txResponse({ txhash: result.hash });
  if (mode === "sync") {
    return txResponse({
      txhash: result.hash,
      code: result.code,
      codespace: result.codespace,
      data: result.data,
      raw_log: result.log,
      logs: parseLogs(result.log),
    });
  }
  const checkTx = result.check_tx as RpcTxResult | undefined;
  const failedCheck = (checkTx?.code ?? 0) !== 0;
  const outcome = ((failedCheck ? checkTx : result.deliver_tx) ?? {}) as RpcTxResult;
  return txResponse({
    height: Long.fromString(String(result.height ?? "0")),
    txhash: result.hash,
    ...resultFields(outcome),
  });
}

function txResponse(fields: ProtoMessage): ProtoMessage {
  return {
    height: Long.ZERO,
    txhash: "",
    codespace: "",
    code: 0,
    data: "",
    raw_log: "",
    logs: [],
    info: "",
    gas_wanted: Long.ZERO,
    gas_used: Long.ZERO,
    timestamp: "",
    ...fields,
  };
}
