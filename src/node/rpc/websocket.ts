import type http from "node:http";
import { createHash } from "node:crypto";
import { WebSocketServer, type WebSocket } from "ws";
import type { CommittedHeight, RpcEvent } from "../chain/blockStore.js";
import type { EmbeddedNode } from "../embeddedNode.js";
import { EventQuery, type EventAttributes } from "./eventQuery.js";
import { ParamReader, RpcParamsError, type RpcParams } from "./rpcParams.js";
import type { RpcMethod } from "./rpcMethods.js";
import { answerRpcCall, type RpcRequest } from "./rpcCall.js";
import { websocketText } from "../../util/websocketText.js";

/** The engine's defaults: max_subscription_clients and max_subscriptions_per_client. */
const MAX_CLIENTS = 100;
const MAX_SUBSCRIPTIONS_PER_CLIENT = 5;
/**
 * Bytes a client may leave unread in its send queue. Past it, its subscriptions are
 * cancelled, as the engine cancels a subscription whose buffer is full; a client
 * that still does not read while sending requests is cut.
 */
export const MAX_UNREAD_BYTES = 1 << 20;
const SLOW_CLIENT = "client is not pulling messages fast enough";

interface Subscription {
  id: unknown;
  query: EventQuery;
}

/**
 * The node's /websocket endpoint: JSON-RPC over a websocket, with
 * subscribe/unsubscribe/unsubscribe_all for `tm.event='NewBlock'` and
 * `tm.event='Tx'` queries (further conditions on tx.hash, tx.height and the
 * transactions' event attributes), and every other RPC method as well.
 */
export function attachWebsocket(server: http.Server, node: EmbeddedNode, methods: Record<string, RpcMethod>): () => void {
  const wss = new WebSocketServer({ server, path: "/websocket" });
  const clients = new Map<WebSocket, Subscription[]>();

  wss.on("connection", (socket) => {
    if (clients.size >= MAX_CLIENTS) {
      socket.close(1013, `max_subscription_clients ${MAX_CLIENTS} reached`);
      return;
    }
    clients.set(socket, []);
    socket.on("close", () => clients.delete(socket));
    socket.on("message", (data) => {
      if (socket.bufferedAmount > 2 * MAX_UNREAD_BYTES) return socket.terminate();
      void handle(socket, websocketText(data));
    });
  });

  async function handle(socket: WebSocket, text: string): Promise<void> {
    let request: RpcRequest & { params?: RpcParams };
    try {
      request = JSON.parse(text) as typeof request;
    } catch {
      return send(socket, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error. Invalid JSON" } });
    }
    const id = request.id ?? null;
    const params = new ParamReader(request.params ?? {}, "json");
    const subscriptions = clients.get(socket) ?? [];
    try {
      switch (request.method) {
        case "subscribe": {
          if (subscriptions.length >= MAX_SUBSCRIPTIONS_PER_CLIENT) throw new Error(`max_subscriptions_per_client ${MAX_SUBSCRIPTIONS_PER_CLIENT} reached`);
          const query = new EventQuery(params.string("query"));
          if (subscriptions.some((s) => s.query.text === query.text)) throw new Error("already subscribed");
          subscriptions.push({ id, query });
          return send(socket, { jsonrpc: "2.0", id, result: {} });
        }
        case "unsubscribe": {
          const query = params.string("query");
          const index = subscriptions.findIndex((s) => s.query.text === query);
          if (index < 0) throw new Error("subscription not found");
          subscriptions.splice(index, 1);
          return send(socket, { jsonrpc: "2.0", id, result: {} });
        }
        case "unsubscribe_all":
          subscriptions.length = 0;
          return send(socket, { jsonrpc: "2.0", id, result: {} });
        default:
          // every other method as over HTTP, with the same error objects
          return send(socket, await answerRpcCall(methods, request, "json"));
      }
    } catch (err) {
      const code = err instanceof RpcParamsError ? -32602 : -32603;
      send(socket, { jsonrpc: "2.0", id, error: { code, message: code === -32602 ? "Invalid params" : "Internal error", data: (err as Error).message } });
    }
  }

  const onBlock = (record: CommittedHeight) => {
    for (const [socket, subscriptions] of clients) {
      if (subscriptions.length > 0 && socket.bufferedAmount > MAX_UNREAD_BYTES) {
        for (const { id } of subscriptions.splice(0)) {
          send(socket, { jsonrpc: "2.0", id, error: { code: -32000, message: "Server error", data: `subscription was cancelled (reason: ${SLOW_CLIENT})` } });
        }
        continue;
      }
      for (const subscription of subscriptions) {
        for (const event of blockEvents(record)) {
          if (subscription.query.matches(event.events)) {
            send(socket, {
              jsonrpc: "2.0",
              id: subscription.id,
              result: { query: subscription.query.text, data: event.data, events: Object.fromEntries(event.events) },
            });
          }
        }
      }
    }
  };
  node.on("block", onBlock);
  return () => {
    node.off("block", onBlock);
    for (const socket of clients.keys()) socket.terminate();
    wss.close();
  };
}

function send(socket: WebSocket, message: unknown): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/** The NewBlock event of a committed height, then one Tx event per transaction, with their attributes. */
function blockEvents(record: CommittedHeight): Array<{ data: unknown; events: EventAttributes }> {
  const height = record.block.block.header.height;
  const out: Array<{ data: unknown; events: EventAttributes }> = [
    {
      data: {
        type: "tendermint/event/NewBlock",
        value: {
          block: record.block.block,
          result_begin_block: { events: record.results.begin_block_events ?? [] },
          result_end_block: { events: record.results.end_block_events ?? [], validator_updates: [] },
        },
      },
      events: withEvents(
        new Map([
          ["tm.event", ["NewBlock"]],
          ["block.height", [height]],
        ]),
        [...(record.results.begin_block_events ?? []), ...(record.results.end_block_events ?? [])],
      ),
    },
  ];
  const txs = record.block.block.data.txs ?? [];
  txs.forEach((tx, index) => {
    const result = record.results.txs_results![index]!;
    const hash = sha256Hex(Buffer.from(tx, "base64"));
    out.push({
      data: { type: "tendermint/event/Tx", value: { TxResult: { height, index, tx, result } } },
      events: withEvents(
        new Map([
          ["tm.event", ["Tx"]],
          ["tx.hash", [hash]],
          ["tx.height", [height]],
        ]),
        result.events,
      ),
    });
  });
  return out;
}

function withEvents(base: EventAttributes, events: RpcEvent[]): EventAttributes {
  for (const event of events) {
    for (const attribute of event.attributes) {
      const key = `${event.type}.${Buffer.from(attribute.key, "base64").toString()}`;
      base.set(key, [...(base.get(key) ?? []), Buffer.from(attribute.value, "base64").toString()]);
    }
  }
  return base;
}

function sha256Hex(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex").toUpperCase();
}
