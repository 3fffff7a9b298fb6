import type protobuf from "protobufjs";
import type { RouteSpec } from "../tables/routeSpec.js";
import { GrpcCode } from "../http/grpcStatus.js";
import { RESPONSE_HEIGHT_HEADER } from "../http/height.js";
import { heightHeader, pathParameters, queryParameters } from "./gatewayParameters.js";
import type { Parameter, Schema } from "./openApiTypes.js";
import { Proto3Schemas } from "./proto3Schemas.js";
import type { FamilyOperation, RouteFamilyDocument } from "./routeFamily.js";

const ERROR_DEFINITION = "gateway.Error";

/** The gateway family's part of the document: one operation per compiled route, proto3 JSON schemas. */
export function gatewayFamilyDocument(routes: RouteSpec[], root: protobuf.Root): RouteFamilyDocument {
  const schemas = new Proto3Schemas();
  const errorRef: Schema = { $ref: `#/definitions/${ERROR_DEFINITION}` };
  const anyRef = schemas.message(root.lookupType("google.protobuf.Any"));
  const operations = routes.map((route): FamilyOperation => {
    const [, service, method] = /^\/(.+)\/([^/]+)$/.exec(route.methodPath)!;
    const parameters: Parameter[] = [...pathParameters(route), ...queryParameters(route)];
    if (route.body) {
      parameters.push({
        name: "body",
        in: "body",
        required: true,
        description:
          "the request message in proto3 JSON; camelCase field names and numbers for 64-bit integers and enums are accepted too, and fields left out take their defaults",
        schema: schemas.message(route.requestType),
      });
    }
    parameters.push(heightHeader());
    return {
      path: route.path,
      verb: route.verb,
      operationId: pascalCase(route.tag) + method,
      operation: {
        summary: words(method!),
        description: [
          `Calls ${service}/${method}.`,
          route.since ? `Added by SDK ${route.since}, served beside v0.41's routes (api.newer-routes).` : "",
          route.derived ? `The chain's node has no such query: the answer is derived from ${route.derived}.` : "",
          route.why ? `Why this route exists: ${route.why}.` : "",
        ]
          .filter(Boolean)
          .join(" "),
        ...(route.since ? { "x-since": route.since } : {}),
        ...(route.derived ? { "x-derived-from": route.derived } : {}),
        tags: [route.tag],
        ...(route.body ? { consumes: ["application/json"] } : {}),
        parameters,
        responses: {
          "200": {
            description: "the response message in proto3 JSON",
            schema: schemas.message(route.responseType),
            headers: { [RESPONSE_HEIGHT_HEADER]: { type: "string", format: "int64", description: "the block height the state was read at" } },
          },
          default: {
            description:
              "an error as a gRPC status: 400 InvalidArgument (a parameter that does not fit its field), 404 NotFound, " +
              "500 Unknown or Internal, 501 Unimplemented (no such route, or the node does not serve the method), 503 Unavailable (the node cannot be reached)",
            schema: errorRef,
          },
        },
      },
    };
  });
  const definitions: Record<string, Schema> = {
    ...schemas.definitions,
    [ERROR_DEFINITION]: {
      type: "object",
      title: "the error body of gateway routes (google.rpc.Status)",
      properties: {
        code: {
          type: "integer",
          format: "int32",
          description: `gRPC status code, e.g. ${GrpcCode.NotFound} NotFound, ${GrpcCode.Unimplemented} Unimplemented`,
        },
        message: { type: "string" },
        details: { type: "array", items: anyRef },
      },
      required: ["code", "message", "details"],
    },
  };
  return { tags: tagsOf(routes), operations, definitions };
}

function tagsOf(routes: RouteSpec[]): RouteFamilyDocument["tags"] {
  const packages = new Map<string, Set<string>>();
  for (const route of routes) {
    const service = route.methodPath.slice(1).split("/")[0]!;
    const pkg = service.slice(0, service.lastIndexOf("."));
    packages.set(route.tag, (packages.get(route.tag) ?? new Set()).add(pkg));
  }
  return [...packages].map(([name, pkgs]) => ({ name, description: `gateway routes of ${[...pkgs].join(", ")}` }));
}

/** "ibc.channel" → "IbcChannel" */
function pascalCase(tag: string): string {
  return tag
    .split(/[^A-Za-z0-9]+/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join("");
}

/** "DelegatorWithdrawAddress" → "Delegator withdraw address" */
function words(method: string): string {
  const text = method.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
