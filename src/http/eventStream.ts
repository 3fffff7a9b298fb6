import type { Context, Middleware, Next } from "koa";
import type http from "node:http";
import { NodeRpcError, type ChainClient, type StreamedEvent } from "../client/chainClient.js";
import { MAX_QUERY_BYTES, queryProblem } from "../events/eventQuery.js";
import { GatewayError, GrpcCode } from "./grpcStatus.js";
import { pastEvents, resumePointOf, type ResumePoint } from "./eventReplay.js";
import { once } from "node:events";

const EVENTS_PATH = "/events";

/** The bounds of the event streams: config.toml's subscription limits, and what a slow reader may leave unread. */
export interface EventStreamLimits {
  /** Streams open at once (rpc.max_subscription_clients). */
  maxClients: number;
  /** Streams one client address may hold (rpc.max_subscriptions_per_client). */
  maxPerClient: number;
  /** Bytes a stream may leave unsent before it is cut (the websocket's bound). */
  maxUnsentBytes: number;
  /** How often a comment is sent, so that proxies and clients see the stream alive. */
  heartbeatMs: number;
}

export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = {
  maxClients: 100,
  maxPerClient: 5,
  maxUnsentBytes: 4 * 1024 * 1024,
  heartbeatMs: 15_000,
};

/**
 * GET /events?query=<query>: the node's events as server-sent events. Each
 * event matching the query (Tendermint 0.34's language) is one message: its
 * `data` is the JSON the engine's websocket holds in the message's `result`
 * ({query, data: {type, value}, events}), its `id` the height (`height.index`
 * for a Tx). A query the engine would refuse, or a stream over the limits, is
 * answered in the gateway's error body before the stream starts.
 */
export class EventStreams {
  private readonly open = new Set<http.ServerResponse>();
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly client: ChainClient,
    private readonly limits: EventStreamLimits = DEFAULT_EVENT_STREAM_LIMITS,
  ) {}

  /** Every request passes here: the others go on without an await of their own. */
  readonly middleware: Middleware = (ctx: Context, next: Next) => {
    if (ctx.path !== EVENTS_PATH || ctx.method !== "GET") return next() as Promise<void>;
    return this.serve(ctx);
  };

  private async serve(ctx: Context): Promise<void> {
    const subscribe = this.client.subscribeEvents?.bind(this.client);
    if (!subscribe) throw new GatewayError(GrpcCode.Unimplemented, "this node's client cannot follow events");
    const query = checkedQuery(ctx);
    const peer = ctx.req.socket.remoteAddress ?? "";
    this.admit(peer);
    this.open.add(ctx.res);
    let stop: () => void = () => undefined;
    try {
      await this.stream(ctx, query, (unsubscribe) => (stop = unsubscribe), subscribe);
    } finally {
      stop();
      this.open.delete(ctx.res);
      this.release(peer);
    }
  }

  /** Streams open now. */
  get size(): number {
    return this.open.size;
  }

  /** Ends every stream (the server is closing: they would hold it open). */
  close(): void {
    for (const res of this.open) res.end();
  }

  private admit(peer: string): void {
    const { maxClients, maxPerClient } = this.limits;
    if (this.open.size >= maxClients) throw new GatewayError(GrpcCode.ResourceExhausted, `max_subscription_clients ${maxClients} reached`);
    const held = this.perClient.get(peer) ?? 0;
    if (held >= maxPerClient) throw new GatewayError(GrpcCode.ResourceExhausted, `max_subscriptions_per_client ${maxPerClient} reached`);
    this.perClient.set(peer, held + 1);
  }

  private release(peer: string): void {
    const held = (this.perClient.get(peer) ?? 1) - 1;
    if (held > 0) this.perClient.set(peer, held);
    else this.perClient.delete(peer);
  }

  /** Subscribes, then writes the stream until either side ends it. */
  private async stream(
    ctx: Context,
    query: string,
    onSubscribed: (stop: () => void) => void,
    subscribe: NonNullable<ChainClient["subscribeEvents"]>,
  ): Promise<void> {
    const res = ctx.res;
    const closed = new Promise<void>((resolve) => res.once("close", resolve));
    // Live events held while the head is not written (the node's events may follow its confirmation
    // at once) and while past blocks are replayed; bounded as what the socket has not taken.
    let held: Array<{ height?: number; text: string }> | undefined = [];
    let heldBytes = 0;
    const send = (text: string) => {
      if (res.writableEnded || res.destroyed) return;
      // a reader that stopped reading: what the socket did not take piles up here, up to the bound
      if (res.writableLength > this.limits.maxUnsentBytes) return void res.destroy();
      res.write(text);
    };
    const live = (event: StreamedEvent) => {
      const text = message(event);
      if (!held) return send(text);
      heldBytes += text.length;
      if (heldBytes > this.limits.maxUnsentBytes) return void res.destroy();
      held.push({ height: resumePointOf(eventId(event))?.height, text });
    };
    let ended = false;
    try {
      onSubscribed(
        await subscribe(query, {
          event: live,
          end: (reason) => {
            ended = true;
            if (held) return void res.destroy(); // not started, or replaying: the client reconnects
            send(`: ${reason}\n\n`);
            res.end();
          },
        }),
      );
    } catch (err) {
      if (err instanceof NodeRpcError) throw new GatewayError(GrpcCode.Unavailable, `the node refused the subscription: ${err.message}`);
      throw err;
    }
    if (ended) throw new GatewayError(GrpcCode.Unavailable, "the node ended the subscription");
    if (res.destroyed) return;
    ctx.respond = false; // the stream is written here, not by Koa
    ctx.status = 200; // for the request log and metrics
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" });
    res.flushHeaders();
    send(": subscribed\n\n");
    const resumeFrom = resumePointOf(ctx.get("Last-Event-ID"));
    // what the client saw, and what was replayed, is not sent again
    const seenTo = resumeFrom === undefined ? 0 : await this.replay(res, query, resumeFrom, closed);
    const waiting = held;
    held = undefined;
    for (const { height, text } of waiting) if (height === undefined || height > seenTo) send(text);
    const heartbeat = setInterval(() => send(": keep-alive\n\n"), this.limits.heartbeatMs);
    try {
      await closed;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Writes the matching events the client has not seen, from its resume point on (eventReplay.ts),
   * waiting for the reader when the socket has not taken what was written.
   * Returns the last height the client has now seen; a node that fails meanwhile ends the stream.
   */
  private async replay(res: http.ServerResponse, query: string, from: ResumePoint, closed: Promise<void>): Promise<number> {
    let seenTo = from.height;
    try {
      for await (const { height, events } of pastEvents(this.client, query, from)) {
        if (res.destroyed) break;
        let taken = true;
        for (const event of events) taken = res.write(message(event));
        // "drain" comes only after a write that was refused (writableLength may be above 0 without one)
        if (!taken) await Promise.race([once(res, "drain"), closed]);
        seenTo = height;
      }
    } catch {
      res.end(": the node could not be read; reconnect to resume\n\n");
    }
    return seenTo;
  }
}

/** The query parameter, or 400 with the engine's words for why it would refuse it. */
function checkedQuery(ctx: Context): string {
  const query = new URLSearchParams(ctx.querystring).get("query");
  if (query === null || query === "")
    throw new GatewayError(GrpcCode.InvalidArgument, "query is required (Tendermint's query language, e.g. tm.event='NewBlock')");
  if (Buffer.byteLength(query) > MAX_QUERY_BYTES) throw new GatewayError(GrpcCode.InvalidArgument, "maximum query length exceeded");
  const problem = queryProblem(query);
  if (problem) throw new GatewayError(GrpcCode.InvalidArgument, `failed to parse query: ${problem}`);
  return query;
}

/** One server-sent event: the id (height, and the tx's index for a Tx), then the JSON on one data line. */
function message(event: StreamedEvent): string {
  const id = eventId(event);
  return `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;
}

/** NewBlock, NewBlockHeader: the height; Tx: height.index; an event that names no height (ValidatorSetUpdates): none. */
function eventId(event: StreamedEvent): string | undefined {
  const value = event.data.value as {
    block?: { header?: { height?: string } };
    header?: { height?: string };
    TxResult?: { height?: string; index?: number };
  };
  if (value?.TxResult) return `${value.TxResult.height}.${value.TxResult.index ?? 0}`;
  const height = value?.block?.header?.height ?? value?.header?.height;
  return height;
}
