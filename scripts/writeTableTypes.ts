/**
 * Writes src/tables/schemaTypes/*.ts: the TypeScript types of the three tables' entries, derived
 * from their JSON Schemas (src/tables/schemas) with json-schema-to-typescript, so that the
 * schema is the one source of each entry's shape. Run after a schema change: npm run table-types
 * (test/tables/schemaTypes.test.ts fails while a file is out of date).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TABLES, tableTypesText } from "./tableTypesText.js";

const directory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../src/tables/schemaTypes");
fs.mkdirSync(directory, { recursive: true });
for (const table of TABLES) {
  const target = path.join(directory, table.output);
  fs.writeFileSync(target, await tableTypesText(table));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
