import fs from "node:fs";
import path from "node:path";
import type protobuf from "protobufjs";
import type { RouteSpec } from "../tables/routeSpec.js";
import type { LegacyRouteSpec } from "../tables/legacyRouteSpec.js";
import type { AminoTransforms } from "../tables/aminoTransforms.js";
import { legacyFamilyDocument } from "./legacyFamily.js";
import { PACKAGE_ROOT } from "../util/paths.js";
import { gatewayFamilyDocument } from "./gatewayFamily.js";
import { operationsFamilyDocument } from "./operationsFamily.js";
import { assembleDocument } from "./openApiDocument.js";
import type { OpenApiDocument } from "./openApiTypes.js";
import { names } from "../names/activeNames.js";

export interface SwaggerTables {
  gateway: RouteSpec[];
  /** The legacy family, when served. */
  legacy?: { routes: LegacyRouteSpec[]; transforms: AminoTransforms };
}

/** The OpenAPI v2 document of every route the server serves, written from the same compiled tables. */
export function writeSwaggerDocument(tables: SwaggerTables, root: protobuf.Root): OpenApiDocument {
  // paths and types come from the tables and the proto tree in the profile's words; the writer's own texts follow here
  return names().deep(
    assembleDocument(
      {
        title: "chain-rest",
        version: packageVersion(),
        description:
          "REST routes of a blockchain node. Gateway routes answer in proto3 JSON (proto field names, 64-bit integers as strings, enums by name). " +
          'Legacy routes (deprecated, the earlier major version\'s) answer in amino JSON, most in the envelope {"height", "result"}, errors as {"error"}. ' +
          "This document is written from the route tables the server runs, so it lists exactly the routes served; " +
          "a route whose module the node does not serve answers 501.",
      },
      [
        gatewayFamilyDocument(tables.gateway, root),
        ...(tables.legacy ? [legacyFamilyDocument(tables.legacy.routes, root, tables.legacy.transforms)] : []),
        operationsFamilyDocument(),
      ],
    ),
  );
}

let version: string | undefined;

function packageVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
  return version;
}
