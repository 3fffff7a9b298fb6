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
    return { jsonrpc: "2.0", id, result: await method(rpcParamReader(request.method!, request.params, form)) };
  } catch (err) {
    if (err instanceof RpcParamsError) return rpcError(id, -32602, "Invalid params", `error converting json params to arguments: ${err.message}`);
    if (err instanceof NodeRpcError) return rpcError(id, err.code, err.rpcMessage, err.data);
    return rpcError(id, -32603, "Internal error", (err as Error).message);
  }
}

export function rpcError(id: unknown, code: number, message: string, data?: string): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: data ? { code, message, data } : { code, message } };
}

/**
 * Parameter names in argument order, as the consensus engine's routes declare them (v0.34
 * rpc/core/routes.go): a call may pass its params as an array in this order, over HTTP POST and the websocket.
 */
const PARAM_ORDER: Record<string, string[]> = {
  subscribe: ["query"],
  unsubscribe: ["query"],
  unsubscribe_all: [],
  health: [],
  status: [],
  net_info: [],
  blockchain: ["minHeight", "maxHeight"],
  genesis: [],
  genesis_chunked: ["chunk"],
  block: ["height"],
  block_by_hash: ["hash"],
  block_results: ["height"],
  commit: ["height"],
  check_tx: ["tx"],
  tx: ["hash", "prove"],
  tx_search: ["query", "prove", "page", "per_page", "order_by"],
  block_search: ["query", "page", "per_page", "order_by"],
  validators: ["height", "page", "per_page"],
  dump_consensus_state: [],
  consensus_state: [],
  consensus_params: ["height"],
  unconfirmed_txs: ["limit"],
  num_unconfirmed_txs: [],
  broadcast_tx_commit: ["tx"],
  broadcast_tx_sync: ["tx"],
  broadcast_tx_async: ["tx"],
  abci_query: ["path", "data", "height", "prove"],
  abci_info: [],
  broadcast_evidence: ["evidence"],
  advance_blocks: ["num_blocks"],
  advance_time: ["duration_in_seconds"],
  set_auto_blocks: ["enabled"],
  snapshot: [],
  revert: ["snapshot_id"],
  dev_chain_status: [],
};

/**
 * The params of a call, read as the engine reads them: an object by name, or an array in
 * argument order that must have exactly as many elements as the method has arguments.
 */
export function rpcParamReader(method: string, params: unknown, form: ParamForm): ParamReader {
  return new ParamReader(namedParams(method, params), form);
}

function namedParams(method: string, params: unknown): RpcParams {
  if (!Array.isArray(params)) return (params ?? {}) as RpcParams;
  const names = Object.hasOwn(PARAM_ORDER, method) ? PARAM_ORDER[method]! : [];
  if (params.length !== names.length) throw new RpcParamsError(`expected ${names.length} parameters (${names.join(", ")}), got ${params.length}`);
  return Object.fromEntries(names.map((name, i) => [name, params[i]]));
}
