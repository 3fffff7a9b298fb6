import { Codec } from "../codec/codec.js";
import { loadProtoRoot } from "../codec/protoRoot.js";
import { compileTables, type CompiledTables } from "../tables/compileTables.js";
import { writeDescriptorSet } from "../tables/export/descriptorSet.js";
import { httpRules } from "../tables/export/httpRules.js";
import { legacyTarget } from "../tables/export/legacyTarget.js";
import { serviceConfigYaml } from "../tables/export/serviceConfig.js";
import { unsayableParts } from "../tables/export/unsayable.js";
import { useNames } from "../names/activeNames.js";
import { DEFAULT_NAMES } from "../names/namesTable.js";
import { printProduct } from "./productOutput.js";

export const ROUTE_FORMATS = ["text", "google-api-service", "descriptor-set"] as const;
export type RouteFormat = (typeof ROUTE_FORMATS)[number];

/**
 * Prints the compiled route tables: as text (verb, path, proto method; legacy
 * routes marked [legacy] with what they do), or the gateway family as a
 * google.api.Service YAML or a FileDescriptorSet with google.api.http options,
 * what those forms cannot say going to stderr.
 */
export function printRoutes(profile = DEFAULT_NAMES, format: RouteFormat = "text"): void {
  const map = useNames(profile);
  const tables = compileTables(new Codec());
  if (format === "text") return printText(tables);
  const rules = httpRules(tables.gateway);
  process.stdout.write(format === "google-api-service" ? serviceConfigYaml(rules) : writeDescriptorSet(loadProtoRoot(), map, rules));
  const unsaid = unsayableParts(tables.gateway, tables.legacy.routes);
  process.stderr.write(`not said by the ${format} export (${unsaid.length}):\n${unsaid.map((line) => `  ${line}\n`).join("")}`);
}

function printText({ gateway, legacy }: CompiledTables): void {
  const width = Math.max(...gateway.map((r) => r.path.length), ...legacy.routes.map((r) => r.path.length));
  for (const route of gateway) printProduct(`${route.verb.toUpperCase().padEnd(4)} ${route.path.padEnd(width)}  ${route.methodPath.slice(1)}`);
  for (const route of legacy.routes) printProduct(`${route.verb.toUpperCase().padEnd(4)} ${route.path.padEnd(width)}  [legacy] ${legacyTarget(route)}`);
  printProduct(`${gateway.length} gateway routes, ${legacy.routes.length} legacy routes`);
}
