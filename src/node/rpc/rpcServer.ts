import http from "node:http";
import getRawBody from "raw-body";
import type { ChainClient } from "../../client/chainClient.js";
import { listenServer } from "../../util/listenServer.js";
import type { RunningServer } from "../../util/runningServer.js";
import { rpcMethods } from "./rpcMethods.js";
import { attachWebsocket, DEFAULT_SUBSCRIPTION_LIMITS, type SubscriptionLimits } from "./websocket.js";
import type { ParamForm } from "./rpcParams.js";
import { answerRpcCall, rpcError, type RpcRequest } from "./rpcCall.js";
import type { EmbeddedNode } from "../embeddedNode.js";
import { rpcCors, type RpcCorsSettings } from "./rpcCors.js";

const MAX_BODY_BYTES = 1_000_000;

/**
 * The embedded node's JSON-RPC over HTTP, as the consensus engine serves it:
 * POST / with JSON-RPC 2.0 (single or batch), and GET /<method>?name=value
 * with JSON-quoted strings and 0x-hex bytes; JSON-RPC with subscriptions on /websocket.
 */
export async function startRpcServer(
  node: EmbeddedNode,
  client: ChainClient,
  laddr: string,
  limits: SubscriptionLimits = DEFAULT_SUBSCRIPTION_LIMITS,
  cors: RpcCorsSettings = { origins: [], methods: [], headers: [] },
): Promise<RunningServer> {
  const methods = rpcMethods(node, client);
  const corsHeaders = rpcCors(cors);
  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.maxConnections = 900;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (corsHeaders?.(req, res)) return;
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

  const call = (request: RpcRequest, form: ParamForm) => answerRpcCall(methods, request, form);

  const detachWebsocket = attachWebsocket(server, node, methods, limits);
  return listenServer(server, laddr, detachWebsocket);
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body, null, 2));
}
