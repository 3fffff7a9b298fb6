import http from "node:http";
import getRawBody from "raw-body";
import { NodeRpcError, type ChainClient } from "../../client/chainClient.js";
import { parseListenAddress } from "../../config/tomlConfig.js";
import type { RunningServer } from "../../util/runningServer.js";
import { rpcMethods } from "./rpcMethods.js";
import { attachWebsocket } from "./websocket.js";
import { ParamReader, RpcParamsError, type ParamForm, type RpcParams } from "./rpcParams.js";
import type { EmbeddedNode } from "../embeddedNode.js";

const MAX_BODY_BYTES = 1_000_000;

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: unknown;
}

/**
 * The embedded node's JSON-RPC over HTTP, as the consensus engine serves it:
 * POST / with JSON-RPC 2.0 (single or batch), and GET /<method>?name=value
 * with JSON-quoted strings and 0x-hex bytes; JSON-RPC with subscriptions on /websocket.
 */
export async function startRpcServer(node: EmbeddedNode, client: ChainClient, laddr: string): Promise<RunningServer> {
  const methods = rpcMethods(node, client);
  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.maxConnections = 900;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://node");
    if (req.method === "GET" && url.pathname !== "/") {
      const reply = await call({ id: -1, method: url.pathname.slice(1), params: Object.fromEntries(url.searchParams) }, "uri");
      return send(res, "error" in reply ? 500 : 200, reply);
    }
    if (req.method !== "POST" || url.pathname !== "/") return send(res, 200, rpcError(null, -32600, "Invalid Request", `path ${url.pathname} is invalid`));
    let body: unknown;
    try {
      body = JSON.parse(await getRawBody(req, { limit: MAX_BODY_BYTES, encoding: "utf8" }));
    } catch {
      return send(res, 500, rpcError(null, -32700, "Parse error. Invalid JSON"));
    }
    if (Array.isArray(body)) return send(res, 200, await Promise.all(body.map((r) => call(r as RpcRequest, "json"))));
    return send(res, 200, await call(body as RpcRequest, "json"));
  }

  async function call(request: RpcRequest, form: ParamForm): Promise<Record<string, unknown>> {
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

  const detachWebsocket = attachWebsocket(server, node, methods);
  const { host, port } = parseListenAddress(laddr);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        detachWebsocket();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
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
};

/** Params as an object; an array must have exactly as many elements as the method has parameters. */
function namedParams(method: string, params: unknown): RpcParams {
  if (!Array.isArray(params)) return (params ?? {}) as RpcParams;
  const names = PARAM_ORDER[method] ?? [];
  if (params.length !== names.length) throw new RpcParamsError(`expected ${names.length} parameters (${names.join(", ")}), got ${params.length}`);
  return Object.fromEntries(names.map((name, i) => [name, params[i]]));
}

function rpcError(id: unknown, code: number, message: string, data?: string): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: data ? { code, message, data } : { code, message } };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body, null, 2));
}
