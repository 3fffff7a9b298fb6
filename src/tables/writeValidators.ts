/**
 * Build step (npm run build, after tsc): writes each table schema's validator
 * as code beside the compiled schema, so that a start does not compile them.
 *
 *   node dist/tables/writeValidators.js
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";
import { builtValidatorFile, TABLE_AJV_OPTIONS } from "./schemaValidator.js";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "schemas");
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".schema.json"))) {
  const ajv = new Ajv({ ...TABLE_AJV_OPTIONS, code: { source: true } });
  const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
  fs.writeFileSync(path.join(dir, builtValidatorFile(file)), standaloneCode.default(ajv, validate));
}
