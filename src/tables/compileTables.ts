import path from "node:path";
import type { Codec } from "../codec/codec.js";
import { aminoTransforms, checkAminoTransforms, type AminoTransforms } from "./aminoTransforms.js";
import { loadLegacyRoutes } from "./compileLegacyRoutes.js";
import { loadRoutes } from "./compileRoutes.js";
import type { LegacyRouteSpec } from "./legacyRouteSpec.js";
import type { RouteSpec } from "./routeSpec.js";
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
