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

export interface TableOptions {
  /** api.newer-routes: serve the entries newer SDKs added (`since:`) and the derived ones (`derived:`); false leaves exactly v0.41's surface. */
  newerRoutes?: boolean;
}

/** Compiles the route tables (startup fails on any table mistake, naming file, entry and key). */
export function compileTables(codec: Codec, options: TableOptions = {}): CompiledTables {
  const transforms = aminoTransforms();
  checkAminoTransforms(transforms, codec.root);
  // every entry is compiled either way, so a mistake in a newer entry is found whatever the setting
  const gateway = loadRoutes(ROUTES_FILE, codec.root);
  return {
    gateway: options.newerRoutes === false ? gateway.filter((route) => route.since === undefined && route.derived === undefined) : gateway,
    legacy: { routes: loadLegacyRoutes(LEGACY_ROUTES_FILE, codec.root, transforms), transforms },
  };
}
