import path from "node:path";
import { loadValidatedYaml } from "../tables/validatedYaml.js";
import { PACKAGE_ROOT } from "../util/paths.js";
import schema from "../tables/schemas/names.schema.json" with { type: "json" };
import { WordMap, type WordMapTable } from "./wordMap.js";

const NAMES_FILE = path.join(PACKAGE_ROOT, "names.yaml");

/** The default profile: the specification's neutral words. */
export const DEFAULT_NAMES = "seed";

/** A mistake in names.yaml, or a profile it does not have. */
export class NamesError extends Error {}

/** names.yaml, validated against its JSON Schema: every profile's word map by name. */
export function loadNamesTable(file = NAMES_FILE): Map<string, WordMap> {
  const data = loadValidatedYaml(file, schema, (message) => new NamesError(message));
  const profiles = new Map<string, WordMap>([[DEFAULT_NAMES, new WordMap(DEFAULT_NAMES)]]);
  for (const [name, table] of Object.entries(data as Record<string, WordMapTable>)) profiles.set(name, new WordMap(name, table));
  return profiles;
}
