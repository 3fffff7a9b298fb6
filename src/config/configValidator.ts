import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";
import { newAjv } from "../util/lazyAjv.js";

const require = createRequire(import.meta.url);

/** How the settings schemas validate: defaults filled in, the first error only, our own schemas not meta-validated. */
export const CONFIG_AJV_OPTIONS = { useDefaults: true, allErrors: false, strict: false, validateSchema: false } as const;

/** Where the build writes the settings validators as code (beside the compiled module). */
export const BUILT_CONFIG_VALIDATORS_DIR = fileURLToPath(new URL("./validators", import.meta.url));

/** A settings schema's built validator, named by the schema's hash: a schema edited since the build finds none. */
export function builtConfigValidatorFile(schema: object): string {
  const hash = crypto.createHash("sha256").update(JSON.stringify(schema)).digest("hex").slice(0, 16);
  return path.join(BUILT_CONFIG_VALIDATORS_DIR, `settings-${hash}.validate.cjs`);
}

/**
 * The validator of a settings file's schema: the code the build generated (ajv standalone)
 * when there is one, else compiled now (from the TypeScript sources, or a schema changed since).
 */
export function configValidator(schema: object): ValidateFunction {
  const built = builtConfigValidatorFile(schema);
  if (fs.existsSync(built)) return require(built) as ValidateFunction;
  return newAjv(CONFIG_AJV_OPTIONS).compile(schema);
}
