import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const require = createRequire(import.meta.url);

/** Where the build writes the package's YAML tables as JSON (beside the compiled module). */
export const BUILT_YAML_DIR = fileURLToPath(new URL("./parsed", import.meta.url));

/** The JSON the build wrote for a YAML text, named by the text's hash: an edited file finds none. */
export function builtYamlFile(text: string): string {
  return path.join(BUILT_YAML_DIR, `${crypto.createHash("sha256").update(text).digest("hex").slice(0, 16)}.json`);
}

function yamlLoad(text: string, filename?: string): unknown {
  // js-yaml loaded on first use: a start that finds every table built never loads it
  const { load } = require("js-yaml") as typeof import("js-yaml");
  return load(text, { filename });
}

/**
 * A YAML text's value: the JSON the build wrote for this very text when there is one (JSON
 * parses far faster than YAML, and every start reads the route tables), else parsed now (js-yaml's errors).
 */
export function parseYaml(text: string, filename?: string): unknown {
  const built = builtYamlFile(text);
  if (fs.existsSync(built)) return JSON.parse(fs.readFileSync(built, "utf8")) as unknown;
  return yamlLoad(text, filename);
}

/** Writes a YAML text's value as JSON for parseYaml, unless JSON cannot hold it as it is (dates, binary). Returns whether written. */
export function writeBuiltYaml(text: string): boolean {
  const value = yamlLoad(text);
  const json = JSON.stringify(value);
  if (json === undefined || !isDeepStrictEqual(JSON.parse(json), value)) return false;
  fs.mkdirSync(BUILT_YAML_DIR, { recursive: true });
  fs.writeFileSync(builtYamlFile(text), json);
  return true;
}
