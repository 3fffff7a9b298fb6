import type http from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { EventQuery, QueryTooLongError } from "../../events/eventQuery.js";
import type { EmbeddedNode } from "../embeddedNode.js";
import { RpcParamsError } from "./rpcParams.js";
import type { RpcMethod } from "./rpcMethods.js";
import { answerRpcCall, rpcParamReader, type RpcRequest } from "./rpcCall.js";
import { streamedEvent, type PublishedEvent } from "./publishedEvents.js";
import { followPublishedEvents } from "./publishedEventFeed.js";
import { SubscriberQueue } from "./subscriberQueue.js";
import { websocketText } from "../../util/websocketText.js";

/** config.toml's [rpc] limits of subscriptions (the engine's keys and defaults). */
export interface SubscriptionLimits {
  maxSubscriptionClients: number;
  maxSubscriptionsPerClient: number;
}

/** The largest JSON-RPC message the websocket reads (the HTTP server's body limit). */
const MAX_REQUEST_BYTES = 1_000_000;

export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { maxSubscriptionClients: 100, maxSubscriptionsPerClient: 5 };

interface Subscription {
  id: unknown;
  query: EventQuery;
}

interface Client {
  subscriptions: Subscription[];
  queue: SubscriberQueue;
}

/** An error the engine's subscribe handlers return: JSON-RPC -32603 with the text as data. */
class SubscribeError extends Error {}

/**
 * The node's /websocket endpoint: JSON-RPC over a websocket, with
 * subscribe/unsubscribe/unsubscribe_all over Tendermint 0.34's query language
 * (every event the node publishes, see publishedEvents.ts), and every other
 * RPC method as well. Errors and limits are the engine's.
 */
export function attachWebsocket(server: http.Server, node: EmbeddedNode, methods: Record<string, RpcMethod>, limits = DEFAULT_SUBSCRIPTION_LIMITS): () => void {
  // a request over the websocket is bounded as one over HTTP (ws would take 100 MiB)
  const wss = new WebSocketServer({ server, path: "/websocket", maxPayload: MAX_REQUEST_BYTES });
  const clients = new Map<WebSocket, Client>();
  /** Clients with at least one subscription: what max_subscription_clients counts. */
  const subscribedClients = () => [...clients.values()].filter((c) => c.subscriptions.length > 0).length;

  wss.on("connection", (socket) => {
    const client: Client = { subscriptions: [], queue: new SubscriberQueue(socket, () => (client.subscriptions.length = 0)) };
    clients.set(socket, client);
    socket.on("close", () => clients.delete(socket));
    // a malformed frame or a message over maxPayload: ws itself closes the connection (1002, 1009)
    // and reports it here; without a listener the error would end the node's process
    socket.on("error", () => undefined);
    socket.on("message", (data) => void handle(client, websocketText(data)));
  });

  async function handle(client: Client, text: string): Promise<void> {
    let request: RpcRequest;
    try {
      request = JSON.parse(text) as typeof request;
    } catch {
      return client.queue.send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error. Invalid JSON" } });
    }
    const id = request.id ?? null;
    try {
      switch (request.method) {
        case "subscribe":
          subscribe(client, id, queryParam(request));
          return client.queue.send({ jsonrpc: "2.0", id, result: {} });
        case "unsubscribe":
          unsubscribe(client, queryParam(request));
          return client.queue.send({ jsonrpc: "2.0", id, result: {} });
        case "unsubscribe_all":
          if (client.subscriptions.length === 0) throw new SubscribeError("subscription not found");
          client.subscriptions.length = 0;
          return client.queue.send({ jsonrpc: "2.0", id, result: {} });
        default:
          // every other method as over HTTP, with the same error objects
          return client.queue.send(await answerRpcCall(methods, request, "json"));
      }
    } catch (err) {
      const invalid = err instanceof RpcParamsError;
      client.queue.send({
        jsonrpc: "2.0",
        id,
        error: { code: invalid ? -32602 : -32603, message: invalid ? "Invalid params" : "Internal error", data: (err as Error).message },
      });
    }
  }

  function subscribe(client: Client, id: unknown, text: string): void {
    if (subscribedClients() >= limits.maxSubscriptionClients) throw new SubscribeError(`max_subscription_clients ${limits.maxSubscriptionClients} reached`);
    if (client.subscriptions.length >= limits.maxSubscriptionsPerClient)
      throw new SubscribeError(`max_subscriptions_per_client ${limits.maxSubscriptionsPerClient} reached`);
    const query = parsedQuery(text);
    if (client.subscriptions.some((s) => s.query.text === query.text)) throw new SubscribeError("already subscribed");
    client.subscriptions.push({ id, query });
  }

  function unsubscribe(client: Client, text: string): void {
    const query = parsedQuery(text);
    const index = client.subscriptions.findIndex((s) => s.query.text === query.text);
    if (index < 0) throw new SubscribeError("subscription not found");
    client.subscriptions.splice(index, 1);
  }

  const stopFollowing = followPublishedEvents(node, (events) => {
    for (const client of clients.values()) deliver(client, events);
  });
  // A revert: what subscribers saw of the forgotten heights is no longer the chain's; their subscriptions end
  // as the engine ends a cancelled one (an error with the subscription's id), so they subscribe again and read afresh.
  const onReverted = (height: number) => {
    for (const client of clients.values()) cancelAll(client, `the dev chain was reverted to height ${height}`);
  };
  node.on("reverted", onReverted);
  return () => {
    stopFollowing();
    node.off("reverted", onReverted);
    for (const socket of clients.keys()) socket.terminate();
    wss.close();
  };
}

function deliver(client: Client, events: readonly PublishedEvent[]): void {
  for (const event of events) {
    for (const subscription of [...client.subscriptions]) {
      if (!subscription.query.matches(event.events)) continue;
      client.queue.send({
        jsonrpc: "2.0",
        id: subscription.id,
        result: streamedEvent(subscription.query.text, event),
      });
    }
  }
}

/** Ends every subscription of a client with the engine's "subscription was cancelled" error. */
function cancelAll(client: Client, reason: string): void {
  for (const { id } of client.subscriptions) {
    client.queue.send({ jsonrpc: "2.0", id, error: { code: -32000, message: "Server error", data: `subscription was cancelled (reason: ${reason})` } });
  }
  client.subscriptions.length = 0;
}

/** subscribe's and unsubscribe's query, by name or in argument order. */
function queryParam(request: RpcRequest): string {
  return rpcParamReader(String(request.method), request.params, "json").string("query");
}

/** The query, or the engine's error: "maximum query length exceeded", "failed to parse query: …". */
function parsedQuery(text: string): EventQuery {
  try {
    return new EventQuery(text);
  } catch (err) {
    if (err instanceof QueryTooLongError) throw new SubscribeError(err.message);
    throw new SubscribeError(`failed to parse query: ${(err as Error).message}`);
  }
}
