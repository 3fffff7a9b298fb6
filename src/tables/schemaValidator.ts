import fs from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";
import { newAjv } from "../util/lazyAjv.js";

const require = createRequire(import.meta.url);

/** How the tables' JSON Schemas validate (their own validity is checked by a test, not at each start). */
export const TABLE_AJV_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;

/** Where the build writes a table schema's validator as code (`${name}.schema.json` → `${name}.validate.cjs`). */
export function builtValidatorFile(schemaFile: string): string {
  return schemaFile.replace(/\.schema\.json$/, ".validate.cjs");
}

/**
 * The validator of a table schema (named by its `$id`): the code the build
 * generated with ajv's standalone mode beside the compiled schema when there
 * is one (compiling a schema costs more than the rest of loading its table),
 * else compiled now (running from the TypeScript sources).
 */
export function tableValidator(schema: { $id?: string }): ValidateFunction {
  const name = schema.$id?.split("/").pop();
  const built = name ? fileURLToPath(new URL(`./schemas/${builtValidatorFile(name)}`, import.meta.url)) : undefined;
  if (built && fs.existsSync(built)) return require(built) as ValidateFunction;
  return newAjv(TABLE_AJV_OPTIONS).compile(schema);
}
