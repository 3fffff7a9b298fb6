import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compile, type JSONSchema } from "json-schema-to-typescript";

const SCHEMAS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/tables/schemas");

/** Each table's schema file and the name of the type of its document. */
export const TABLES = [
  { file: "routes.schema.json", name: "RoutesTable", output: "routesTable.ts" },
  { file: "legacy-routes.schema.json", name: "LegacyRoutesTable", output: "legacyRoutesTable.ts" },
  { file: "amino-transforms.schema.json", name: "AminoTransformsTable", output: "aminoTransformsTable.ts" },
];

/**
 * The schema without the choice constraints (oneOf / not) of objects that also list their
 * properties: they only say which of the optional keys must be present (exactly one verb),
 * which the type states as optional keys; left in, they make the generator give up on the type.
 */
function withoutChoices(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutChoices);
  if (!node || typeof node !== "object") return node;
  const object = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if ((key === "oneOf" || key === "not" || key === "anyOf") && "properties" in object) continue;
    out[key] = withoutChoices(value);
  }
  return out;
}

/** The text of the types file of one table (src/tables/schemaTypes/<output>). */
export async function tableTypesText(table: (typeof TABLES)[number]): Promise<string> {
  const schema = JSON.parse(fs.readFileSync(path.join(SCHEMAS, table.file), "utf8")) as JSONSchema;
  const types = await compile({ ...(withoutChoices(schema) as JSONSchema), title: table.name }, table.name, {
    bannerComment: "",
    format: true,
    style: { printWidth: 160 },
  });
  return `// Generated from src/tables/schemas/${table.file} by scripts/writeTableTypes.ts (npm run table-types): do not edit.\n\n${types}`;
}
