import type { Response } from "./openApiTypes.js";
import type { RouteFamilyDocument } from "./routeFamily.js";

const TAG = "operations";

const ERROR: Response = {
  description: "Not ready: the node does not answer, its NewBlock subscription is down, or the latest block is older than max_block_age",
  schema: { $ref: "#/definitions/operations.Error" },
};

/**
 * The balancer's probes, served beside the route tables (not a family of
 * theirs): GET /healthz and GET /readyz (http/health.ts).
 */
export function operationsFamilyDocument(): RouteFamilyDocument {
  return {
    tags: [{ name: TAG, description: "Probes for load balancers and orchestrators" }],
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
