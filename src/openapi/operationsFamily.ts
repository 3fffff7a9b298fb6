import type { Response } from "./openApiTypes.js";
import type { RouteFamilyDocument } from "./routeFamily.js";

const TAG = "operations";

const ERROR: Response = {
  description: "Not ready: the node does not answer, its NewBlock subscription is down, or the latest block is older than max_block_age",
  schema: { $ref: "#/definitions/operations.Error" },
};

/**
 * What is served beside the route tables (not a family of theirs): the
 * balancer's probes GET /healthz and GET /readyz (http/health.ts), and the
 * event stream GET /events (http/eventStream.ts).
 */
export function operationsFamilyDocument(): RouteFamilyDocument {
  return {
    tags: [{ name: TAG, description: "Probes for load balancers and orchestrators; the node's events as server-sent events" }],
    operations: [
      {
        path: "/healthz",
        verb: "get",
        operationId: "Healthz",
        operation: {
          summary: "The process answers (liveness)",
          tags: [TAG],
          parameters: [],
          responses: { "200": { description: "The process answers", schema: { $ref: "#/definitions/operations.Health" } } },
        },
      },
      {
        path: "/readyz",
        verb: "get",
        operationId: "Readyz",
        operation: {
          summary: "Queries can be answered now (readiness)",
          description:
            "200 when the node answers its status and is not catching up and, in `gateway --node`, its NewBlock subscription is up; 503 with code 14 otherwise.",
          tags: [TAG],
          parameters: [
            {
              name: "max_block_age",
              in: "query",
              required: false,
              type: "string",
              pattern: "^[0-9]{1,9}$",
              description: "Also require the latest block to be at most this many seconds old (only where blocks are expected).",
            },
          ],
          responses: {
            "200": { description: "Ready", schema: { $ref: "#/definitions/operations.Ready" } },
            "400": { description: "max_block_age is not a whole number of seconds", schema: { $ref: "#/definitions/operations.Error" } },
            "503": ERROR,
          },
        },
      },
      {
        path: "/events",
        verb: "get",
        operationId: "Events",
        operation: {
          summary: "The node's events matching a query, as server-sent events",
          description:
            "A `text/event-stream`: one message per event matching the query (Tendermint 0.34's query language, as the node's websocket `subscribe` takes it). " +
            "Its `data` is the JSON the websocket message's `result` holds ({query, data: {type, value}, events}); its `id` the height (`height.index` for a Tx). " +
            "Comments (`: keep-alive`) every 15 s. A bad query, or a stream over the limits, is answered in the error body before the stream starts. " +
            "`Last-Event-ID` resumes from the block after the one it names (at most the newest 1,000 blocks).",
          tags: [TAG],
          produces: ["text/event-stream", "application/json"],
          parameters: [
            {
              name: "query",
              in: "query",
              required: true,
              type: "string",
              description: "Tendermint's event query, at most 512 bytes, e.g. `tm.event='Tx' AND transfer.recipient='<address>'`.",
            },
          ],
          responses: {
            "200": { description: "The event stream", schema: { type: "string" } },
            "400": { description: "The query is missing, too long or does not parse", schema: { $ref: "#/definitions/operations.Error" } },
            "429": { description: "max_subscription_clients or max_subscriptions_per_client reached", schema: { $ref: "#/definitions/operations.Error" } },
            "503": { description: "The node cannot be subscribed to", schema: { $ref: "#/definitions/operations.Error" } },
          },
        },
      },
    ],
    definitions: {
      "operations.Health": { type: "object", properties: { status: { type: "string", enum: ["SERVING"] } }, required: ["status"] },
      "operations.Ready": {
        type: "object",
        properties: {
          status: { type: "string", enum: ["SERVING"] },
          height: { type: "string", format: "int64", description: "The node's latest height" },
          latest_block_time: { type: "string", format: "date-time" },
        },
        required: ["status"],
      },
      "operations.Error": {
        type: "object",
        properties: { code: { type: "integer" }, message: { type: "string" }, details: { type: "array", items: { type: "object" } } },
        required: ["code", "message", "details"],
      },
    },
  };
}
