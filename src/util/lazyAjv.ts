import { createRequire } from "node:module";
import type { Ajv as AjvClass, Options } from "ajv";

const require = createRequire(import.meta.url);

/**
 * A new ajv, the library loaded on first use: a start that finds every validator built
 * (npm run build writes them as code) never loads ajv's compiler, a large library.
 */
export function newAjv(options: Options): AjvClass {
  const { Ajv } = require("ajv") as typeof import("ajv");
  return new Ajv(options);
}
