import path from "node:path";
import type { ChainClient } from "../client/chainClient.js";
import { Codec } from "../codec/codec.js";
import type { ApiConfig } from "../config/appConfig.js";
import { createRestApp } from "../gateway/app.js";
import { listen, type RunningServer } from "../gateway/httpServer.js";
import { loadRoutes } from "../tables/compileRoutes.js";
import type { RouteSpec } from "../tables/routeSpec.js";
import { loadLegacyRoutes } from "../tables/compileLegacyRoutes.js";
import type { LegacyRouteSpec } from "../tables/legacyRouteSpec.js";
import { aminoTransforms, checkAminoTransforms, type AminoTransforms } from "../tables/aminoTransforms.js";
import { SERVICE_METHODS } from "../services/index.js";
import { PACKAGE_ROOT } from "../util/paths.js";

export const ROUTES_FILE = path.join(PACKAGE_ROOT, "routes.yaml");
export const LEGACY_ROUTES_FILE = path.join(PACKAGE_ROOT, "legacy-routes.yaml");

export interface CompiledTables {
  gateway: RouteSpec[];
  legacy: { routes: LegacyRouteSpec[]; transforms: AminoTransforms };
}

/** Compiles the route tables (startup fails on any table mistake, naming file, entry and key). */
export function compileTables(codec: Codec): CompiledTables {
  const transforms = aminoTransforms();
  checkAminoTransforms(transforms, codec.root);
  return { gateway: loadRoutes(ROUTES_FILE, codec.root), legacy: { routes: loadLegacyRoutes(LEGACY_ROUTES_FILE, codec.root, transforms), transforms } };
}

/** Starts the REST server on api.address in front of `client`. */
export async function startRestServer(api: ApiConfig, bech32Prefix: string, client: ChainClient, codec: Codec): Promise<RunningServer> {
  const tables = compileTables(codec);
  const app = createRestApp({
    gatewayRoutes: tables.gateway,
    legacy: tables.legacy,
    deps: { client, codec, services: SERVICE_METHODS, maxBodyBytes: api["rpc-max-body-bytes"], bech32Prefix },
    cors: api["enabled-unsafe-cors"],
    swagger: api.swagger,
  });
  return listen(app, api);
}
