import { NodeRpcError } from "../../client/chainClient.js";
import type { RpcMethod } from "./rpcMethods.js";
import { ParamReader, RpcParamsError, type ParamForm, type RpcParams } from "./rpcParams.js";

export interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: unknown;
}

/**
 * One JSON-RPC call answered as the consensus engine answers it, the same
 * over HTTP and over the websocket: the result, or the error object of a
 * method that is not found, params that do not convert, or a method that failed.
 */
export async function answerRpcCall(methods: Record<string, RpcMethod>, request: RpcRequest, form: ParamForm): Promise<Record<string, unknown>> {
  const id = request.id ?? null;
  const method = request.method && Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
  if (!method) return rpcError(id, -32601, "Method not found");
  try {
    return { jsonrpc: "2.0", id, result: await method(new ParamReader(namedParams(request.method!, request.params), form)) };
  } catch (err) {
    if (err instanceof RpcParamsError) return rpcError(id, -32602, "Invalid params", `error converting json params to arguments: ${err.message}`);
    if (err instanceof NodeRpcError) return rpcError(id, err.code, err.rpcMessage, err.data);
    return rpcError(id, -32603, "Internal error", (err as Error).message);
  }
}

export function rpcError(id: unknown, code: number, message: string, data?: string): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: data ? { code, message, data } : { code, message } };
}

/** Parameter names in order, for JSON-RPC calls that pass params as an array. */
const PARAM_ORDER: Record<string, string[]> = {
  abci_query: ["path", "data", "height", "prove"],
  broadcast_tx_async: ["tx"],
  broadcast_tx_sync: ["tx"],
  broadcast_tx_commit: ["tx"],
  tx: ["hash", "prove"],
  tx_search: ["query", "prove", "page", "per_page", "order_by"],
  block: ["height"],
  block_results: ["height"],
  commit: ["height"],
  validators: ["height", "page", "per_page"],
  blockchain: ["minHeight", "maxHeight"],
  advance_blocks: ["num_blocks"],
  advance_time: ["duration_in_seconds"],
  set_auto_blocks: ["enabled"],
};

/** Params as an object; an array must have exactly as many elements as the method has parameters. */
function namedParams(method: string, params: unknown): RpcParams {
  if (!Array.isArray(params)) return (params ?? {}) as RpcParams;
  const names = PARAM_ORDER[method] ?? [];
  if (params.length !== names.length) throw new RpcParamsError(`expected ${names.length} parameters (${names.join(", ")}), got ${params.length}`);
  return Object.fromEntries(names.map((name, i) => [name, params[i]]));
}
